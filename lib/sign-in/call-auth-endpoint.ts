// Calls one of better-auth's own endpoints in-process for an API request, so its checks, hashing and
// database-backed attempt limits apply. Only the headers that endpoint needs go along: the client
// address (ours, from lib/request-origin/client-address.ts: the attempt limit keys on it) and user agent, plus,
// for endpoints that act on the caller's session, the cookie and the Origin better-auth checks it with.
import { getAuth } from './better-auth'
import { withClientAddress } from '@/lib/auth/client-address-header'

const CLIENT_HEADERS = ['user-agent']
const SESSION_HEADERS = ['cookie', 'origin']

export function callAuthEndpoint(request: Request, path: string, body: unknown, { withSession = false } = {}): Promise<Response> {
  const headers = new Headers({ 'content-type': 'application/json' })
  for (const name of withSession ? [...CLIENT_HEADERS, ...SESSION_HEADERS] : CLIENT_HEADERS) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  withClientAddress(headers, request)
  return getAuth().handler(new Request(new URL(`/api/auth${path}`, request.url), { method: 'POST', headers, body: JSON.stringify(body) }))
}
