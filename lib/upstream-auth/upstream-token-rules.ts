// The pure rules of upstream access tokens (docs/design/gateway.md, "Upstream credentials"): when a
// token is replaced, and how a failed fetch is told.

/** A token whose server gave no `expires_in` is used for this long (RFC 6749 leaves its lifetime to documentation). */
export const DEFAULT_TOKEN_LIFETIME_S = 300
/**
 * How early a token is replaced, so a call never carries one that expires in flight: a tenth of its
 * lifetime plus a second (servers count expiry in whole seconds from a rounded-down issue time), at
 * most this.
 */
export const MAX_REFRESH_MARGIN_S = 60

export function tokenTimes(fetchedAtMs: number, expiresIn: number | undefined): { expiresAt: Date; refreshAt: Date } {
  const lifetime = expiresIn !== undefined && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : DEFAULT_TOKEN_LIFETIME_S
  const margin = Math.min(MAX_REFRESH_MARGIN_S, 1 + lifetime / 10)
  return { expiresAt: new Date(fetchedAtMs + lifetime * 1000), refreshAt: new Date(fetchedAtMs + (lifetime - margin) * 1000) }
}

/**
 * A token the authorization server would not issue. `error` is the server's own code (RFC 6749 §5.2:
 * invalid_client, invalid_scope, ...) or ours when there was no answer to read: `unreachable`,
 * `refused_by_policy` (the outbound guard), `no_metadata`, `invalid_response`, `secret_unavailable`.
 */
export class UpstreamTokenError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | null,
    readonly server: string,
  ) {
    super(describeTokenFailure(error, description, server))
    this.name = 'UpstreamTokenError'
  }
}

const OUR_CODES: Record<string, string> = {
  unreachable: 'could not be reached',
  refused_by_policy: 'is refused by the outbound policy',
  no_metadata: 'publishes no usable metadata',
  invalid_response: 'answered something that is not a token response',
  secret_unavailable: 'was not asked: the client secret cannot be read',
}

export function describeTokenFailure(error: string, description: string | null, server: string): string {
  const detail = description ? `: ${description}` : ''
  if (error in OUR_CODES) return `the authorization server ${server} ${OUR_CODES[error]}${detail}`
  return `the authorization server ${server} refused the token request: ${error}${detail}`
}
