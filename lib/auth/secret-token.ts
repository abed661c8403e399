// Bearer secrets Toolroom hands out (API tokens, agent credentials): shown once, stored only as a
// SHA-256 hash. The tokens are 256 random bits, so a fast hash is enough (no password stretching),
// and the visible prefix names what a token is when it turns up in a log or a secret scanner.
import 'server-only'
import { createHash, randomBytes } from 'node:crypto'

export type TokenPrefix = 'trk' | 'tra'

export interface IssuedToken {
  /** The whole token: returned to the caller once, never stored. */
  token: string
  /** SHA-256 hex of the token: what the database keeps and looks up by. */
  hash: string
  /** The first characters, kept so people can tell their tokens apart in lists. */
  hint: string
}

/** `trk_…` for API tokens, `tra_…` for agent credentials. */
export function issueToken(prefix: TokenPrefix): IssuedToken {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`
  return { token, hash: hashToken(token), hint: token.slice(0, 10) }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The bearer value of an `Authorization: Bearer …` header, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization')
  if (!header) return null
  const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header)
  return match ? match[1] : null
}
