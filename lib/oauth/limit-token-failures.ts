// The limit at the endpoints that check a client's credentials (token, revocation): failed requests
// per client id and client address, one allowance for both (the rule and why:
// lib/auth/failed-attempts.ts). A request is counted before better-auth checks it and given back when
// it succeeds, so a client that knows its credentials is never held back, and nobody's bogus
// requests stop another client, or this one from another address.
import 'server-only'
import { clientAttemptSubject, countAttempt, releaseAttempt } from '@/lib/auth/failed-attempts'
import { clientAddress } from '@/lib/request-origin/client-address'
import { readBounded } from '@/lib/http/read-bounded'

/** Token requests are a few form fields; an assertion or a long refresh token still fits well within this. */
const MAX_TOKEN_REQUEST_BYTES = 64 * 1024

export async function limitTokenFailures(request: Request, issue: (request: Request) => Promise<Response>): Promise<Response> {
  const body = await readBounded(request, MAX_TOKEN_REQUEST_BYTES)
  if (body === null) return tokenError(413, `a request here is at most ${MAX_TOKEN_REQUEST_BYTES} bytes`)
  const subject = clientAttemptSubject(clientIdOf(request.headers, body), clientAddress(request))
  const verdict = await countAttempt('oauth-token', subject)
  if (!verdict.allowed)
    return tokenError(429, `too many failed token requests for this client from this address; try again in ${verdict.retryAfterSeconds} seconds`, {
      'retry-after': String(verdict.retryAfterSeconds),
    })
  const answer = await issue(new Request(request, { body }))
  if (answer.ok) await releaseAttempt('oauth-token', subject)
  return answer
}

/**
 * The client a token request speaks for: HTTP Basic's user (form-encoded, RFC 6749 §2.3.1), else the
 * body's `client_id`, else a client assertion's issuer (RFC 7523; unverified here, better-auth checks
 * it: a liar only fills the allowance of that client at the liar's own address).
 */
export function clientIdOf(headers: Headers, body: string): string {
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1]
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8')
    const user = decoded.slice(0, Math.max(0, decoded.indexOf(':')))
    if (user) return formDecoded(user)
  }
  const form = new URLSearchParams(body)
  return form.get('client_id') ?? assertionIssuer(form.get('client_assertion')) ?? ''
}

function assertionIssuer(assertion: string | null): string | null {
  try {
    const claims: unknown = JSON.parse(Buffer.from(assertion?.split('.')[1] ?? '', 'base64url').toString('utf8'))
    return claims && typeof claims === 'object' && 'iss' in claims && typeof claims.iss === 'string' ? claims.iss : null
  } catch {
    return null
  }
}

function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}

function tokenError(status: number, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: 'invalid_request', error_description: description }, { status, headers: { 'cache-control': 'no-store', ...headers } })
}
