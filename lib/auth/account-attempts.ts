// Attempts per account (sign-in per email, password changes per person), beside better-auth's limit
// per client address: rotating addresses must not buy more guesses at one password. Every attempt
// is counted before the password is checked (so parallel guesses cannot all slip through), and a
// successful one is given back: only wrong guesses use the allowance up. One statement in the
// database, so the limit holds across web processes; a fixed window opened by the first attempt, in
// better-auth's own RateLimit table (its keys are `<ip>|<path>`, ours `account:…`).
import 'server-only'
import { prisma } from '@/lib/db'
import { authSettings } from './auth-settings'

export interface AttemptVerdict {
  allowed: boolean
  retryAfterSeconds: number
}

export async function countAccountAttempt(purpose: 'sign-in' | 'password-change', account: string): Promise<AttemptVerdict> {
  const { signInAttempts, signInWindowSeconds } = authSettings()
  const now = Date.now()
  const windowMs = signInWindowSeconds * 1000
  const key = keyOf(purpose, account)
  const [row] = await prisma.$queryRaw<{ count: number; lastRequest: bigint }[]>`
    INSERT INTO "RateLimit" ("id", "key", "count", "lastRequest") VALUES (gen_random_uuid()::text, ${key}, 1, ${now})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."lastRequest" <= ${now - windowMs} THEN 1 ELSE "RateLimit"."count" + 1 END,
      "lastRequest" = CASE WHEN "RateLimit"."lastRequest" <= ${now - windowMs} THEN ${now} ELSE "RateLimit"."lastRequest" END
    RETURNING "count", "lastRequest"`
  const allowed = row.count <= signInAttempts
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((Number(row.lastRequest) + windowMs - now) / 1000)) }
}

/** A successful attempt was no guess: it gives its count back. */
export async function releaseAccountAttempt(purpose: 'sign-in' | 'password-change', account: string): Promise<void> {
  await prisma.$executeRaw`UPDATE "RateLimit" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ${keyOf(purpose, account)}`
}

const keyOf = (purpose: string, account: string) => `account:${purpose}:${account.trim().toLowerCase().slice(0, 320)}`
