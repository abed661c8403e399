// Which of better-auth's own endpoints under /api/auth answer at all (lib/sign-in/auth-handler.ts):
// what the portal uses (session lookups, single sign-on start and callback, sign-out) and the OAuth
// provider's protocol endpoints for MCP clients. The authorization server's metadata advertises only
// what is here (lib/sign-in/auth-server-metadata.ts).
export interface OpenAuthEndpoint {
  method: string
  path: RegExp
  /** Accepted from another site's page (no Origin check): what protects it is not a cookie. */
  crossSite?: true
}

export const OPEN_AUTH_ENDPOINTS: OpenAuthEndpoint[] = [
  { method: 'GET', path: /^\/api\/auth\/(get-session|ok|error)$/ },
  { method: 'POST', path: /^\/api\/auth\/(sign-in\/social|sign-out)$/ },
  { method: 'GET', path: /^\/api\/auth\/callback\/[\w-]+$/ },
  // An identity provider's form_post answer comes from the provider's own site; the OAuth state
  // (bound to a cookie set when sign-on started) protects it, not Origin.
  { method: 'POST', path: /^\/api\/auth\/callback\/[\w-]+$/, crossSite: true },
  { method: 'GET', path: /^\/api\/auth\/oauth2\/authorize$/ },
  { method: 'GET', path: /^\/api\/auth\/\.well-known\/oauth-authorization-server$/ },
  // OAuth clients are programs, not pages: what protects these is the client's own credentials or code verifier.
  { method: 'POST', path: /^\/api\/auth\/oauth2\/(token|revoke)$/, crossSite: true },
  { method: 'POST', path: /^\/api\/auth\/oauth2\/register$/, crossSite: true },
]

export function openAuthEndpoint(method: string, path: string): OpenAuthEndpoint | undefined {
  return OPEN_AUTH_ENDPOINTS.find((r) => r.method === method && r.path.test(path))
}
