// What TOOLROOM_ADMIN_TOKEN asks of the stored tokens, apart from the database client: npm start asks
// it before loading the Prisma client (scripts/steps/data-settled.ts), and ensureEnvAdminToken
// (ensure-env-admin-token.ts) writes it.
import 'server-only'
import { hashToken } from '@/lib/auth/secret-token'

/** The hash the variable's token is stored under; null when the variable is unset or blank. */
export function wantedEnvTokenHash(value: string | undefined): string | null {
  const token = value?.trim()
  return token ? hashToken(token) : null
}

/**
 * Whether the unrevoked tokens made from the variable are already what it asks: none when it is unset,
 * exactly the one with its hash when it is set. Anything else (even two of the same) is for
 * ensureEnvAdminToken to settle.
 */
export function envAdminTokensSettled(unrevokedEnvTokenHashes: readonly string[], value: string | undefined): boolean {
  const wanted = wantedEnvTokenHash(value)
  return wanted === null ? unrevokedEnvTokenHashes.length === 0 : unrevokedEnvTokenHashes.length === 1 && unrevokedEnvTokenHashes[0] === wanted
}
