// The one limit on guessing, wherever a secret is checked: sign-in, password changes, and OAuth
// clients at the token and revocation endpoints. Every attempt is counted before the secret is checked (so parallel
// guesses cannot all slip through), and a successful one is given back: only failures use the
// allowance up, so people and clients that know their secret are never held back by their own
// traffic, however many share an address. Each is keyed by what is being guessed:
//  - a password per account, from any address: rotating addresses must not buy more guesses at one
//    password (and nobody's failures at another account count against it);
//  - a client's credentials (secret, code, refresh token) per client id and client address: a
//    stranger's bogus requests, for this client or another, never stop a client elsewhere, nor
//    other clients behind the same address (`TOOLROOM_TRUSTED_PROXIES` decides which address that
//    is, lib/request-origin/client-address.ts).
// One statement in the database, so the limit holds across web processes; a fixed window opened by
// the first attempt, in better-auth's own RateLimit table (its keys are `<ip>|<path>`, ours
// `account:…` and `client:…`).
import 'server-only'
import { db, sql } from '@/lib/sql'
import { authSettings } from './auth-settings'

export type AttemptPurpose = 'sign-in' | 'password-change' | 'oauth-token'

export interface AttemptVerdict {
  allowed: boolean
  retryAfterSeconds: number
}

/** OAuth clients are programs that retry: a minute's window, as better-auth's own token endpoint limit had. */
const OAUTH_TOKEN_FAILURES = { max: 20, windowSeconds: 60 }

function limitOf(purpose: AttemptPurpose): { max: number; windowSeconds: number } {
  if (purpose === 'oauth-token') return OAUTH_TOKEN_FAILURES
  const { signInAttempts, signInWindowSeconds } = authSettings()
  return { max: signInAttempts, windowSeconds: signInWindowSeconds }
}

export async function countAttempt(purpose: AttemptPurpose, subject: string): Promise<AttemptVerdict> {
  const { max, windowSeconds } = limitOf(purpose)
  const now = Date.now()
  const windowMs = windowSeconds * 1000
  const key = keyOf(purpose, subject)
  const windowClosed = BigInt(now - windowMs)
  const row = await db
    .insertInto('RateLimit')
    .values({ id: sql<string>`gen_random_uuid()::text`, key, count: 1, lastRequest: BigInt(now) })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const expired = eb('RateLimit.lastRequest', '<=', windowClosed)
        return {
          count: eb
            .case()
            .when(expired)
            .then(1)
            .else(eb('RateLimit.count', '+', 1))
            .end(),
          lastRequest: eb.case().when(expired).then(BigInt(now)).else(eb.ref('RateLimit.lastRequest')).end(),
        }
      }),
    )
    .returning(['count', 'lastRequest'])
    .executeTakeFirstOrThrow()
  const allowed = row.count <= max
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((Number(row.lastRequest) + windowMs - now) / 1000)) }
}

/**
 * Deletes the windows no check reads any more: a check finding an expired window starts a new one, so
 * a row whose window closed holds nothing but its key. Without this, every bogus client id and
 * address ever tried would stay a row. better-auth's own rows (its change-password limit) use the
 * sign-in window too, so the longest window covers them. Returns how many were deleted.
 */
export async function forgetExpiredAttempts(now = Date.now()): Promise<number> {
  const longestWindowMs = Math.max(OAUTH_TOKEN_FAILURES.windowSeconds, authSettings().signInWindowSeconds) * 1000
  const deleted = await db
    .deleteFrom('RateLimit')
    .where('lastRequest', '<', BigInt(now - longestWindowMs))
    .executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

/** A successful attempt was no guess: it gives its count back. */
export async function releaseAttempt(purpose: AttemptPurpose, subject: string): Promise<void> {
  await db
    .updateTable('RateLimit')
    .set((eb) => ({ count: eb.fn<number>('greatest', [eb('count', '-', 1), sql.lit(0)]) }))
    .where('key', '=', keyOf(purpose, subject))
    .execute()
}

/** A client's subject: its id and the address it asks from. */
export const clientAttemptSubject = (clientId: string, address: string | null) => `${clientId}|${address ?? 'unknown'}`

const keyOf = (purpose: AttemptPurpose, subject: string) =>
  purpose === 'oauth-token' ? `client:${purpose}:${subject.slice(0, 400)}` : `account:${purpose}:${subject.trim().toLowerCase().slice(0, 320)}`
