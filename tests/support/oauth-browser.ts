// The browser's and the MCP client's parts of MCP authorization for tests: an OAuth client provider
// that keeps what an MCP client keeps between runs, a browser following a link, and a signed-in
// person consenting at Toolroom's consent API. No OAuth of our own: the SDK and better-auth do it.
import http from 'node:http'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { expect } from 'vitest'
import { authorizeContinuation } from '@/lib/oauth/authorize-continuation'

export const REDIRECT = 'http://127.0.0.1:53682/callback'

/** What an MCP client keeps between runs; the "browser" part is done by the test. */
export class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null
  private verifier = ''
  private saved: OAuthTokens | undefined
  constructor(private info?: OAuthClientInformationMixed) {}
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    // A native client's loopback redirect; 2026-07-28 has clients name their application_type when they register.
    return {
      client_name: 'a dynamically registered MCP client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

/**
 * A browser following a link: better-auth answers a script's fetch (Sec-Fetch-Mode: cors, which
 * Node's fetch always sends) with JSON instead of a redirect, so this goes through node:http.
 */
export function navigate(url: URL, cookie?: string): Promise<{ status: number; location: string | null }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html', ...(cookie ? { cookie } : {}) } },
      (res) => {
        res.resume()
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null })
      },
    )
    req.on('error', reject)
  })
}

/** The browser's part: follow the authorization URL signed in, consent (picking `agent` if asked), and return the code. */
export async function consentAt(appUrl: string, provider: MemoryProvider, cookie: string, body: { accept?: boolean; agent?: string } = {}) {
  const signedOut = await navigate(provider.authorizationUrl!)
  expect(signedOut.status).toBe(302)
  const signIn = new URL(signedOut.location!, appUrl)
  expect(signIn.pathname).toBe('/sign-in')
  expect(authorizeContinuation(signIn.searchParams)).toMatch(/^\/api\/auth\/oauth2\/authorize\?/)
  const signedIn = await navigate(provider.authorizationUrl!, cookie)
  expect(signedIn.status).toBe(302)
  const consentPage = new URL(signedIn.location!, appUrl)
  expect(consentPage.pathname).toBe('/oauth/consent')
  const decided = await fetch(`${appUrl}/api/v1/oauth/consent`, {
    method: 'POST',
    headers: { cookie, origin: appUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ oauthQuery: consentPage.search.slice(1), accept: body.accept ?? true, ...(body.agent ? { agent: body.agent } : {}) }),
  })
  return { status: decided.status, json: (await decided.json()) as { redirectTo?: string; detail?: string } }
}

/**
 * An MCP client's whole sign-in at Toolroom for the person whose session `cookie` is: `connect` is
 * refused without a token, the person consents (consentAt), and the code is exchanged, so the
 * provider holds the person's tokens.
 */
export async function signInMcpClient(appUrl: string, provider: MemoryProvider, cookie: string, connect: () => Promise<unknown>) {
  await expect(connect()).rejects.toThrow()
  const decided = await consentAt(appUrl, provider, cookie)
  expect(decided.status, JSON.stringify(decided.json)).toBe(200)
  await new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`), { authProvider: provider }).finishAuth(
    new URL(decided.json.redirectTo!).searchParams.get('code')!,
  )
}
