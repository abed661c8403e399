// Where a person goes after signing in when an MCP client's authorization request sent them to the
// sign-in page: back to the authorization endpoint with the request's own parameters (better-auth's
// signing ones dropped, and `prompt=login`, which this sign-in has just satisfied). Only that one path
// of ours is ever the target, so the parameters cannot send anyone elsewhere; the authorization
// server checks them all again (client, redirect URI, PKCE). The request comes signed by better-auth,
// or unsigned from lib/sign-in/admit-authorize-resource.ts (a resource not served yet at this origin).
const SIGNING = new Set(['sig', 'exp', 'ba_iat', 'ba_pl', 'ba_param'])

export function authorizeContinuation(params: URLSearchParams): string | null {
  if (!params.get('client_id') || !(params.get('sig') || params.get('response_type') === 'code')) return null
  const next = new URLSearchParams()
  for (const [key, value] of params) {
    if (SIGNING.has(key)) continue
    if (key === 'prompt') {
      const rest = value.split(' ').filter((p) => p && p !== 'login')
      if (rest.length) next.append(key, rest.join(' '))
      continue
    }
    next.append(key, value)
  }
  return `/api/auth/oauth2/authorize?${next.toString()}`
}
