// An upstream MCP server that follows MCP authorization, made of parts nobody here wrote: an SDK MCP
// server behind the SDK's bearer-auth middleware, serving its protected-resource metadata (RFC 9728),
// and a real authorization server (oidc-provider from npm) issuing its tokens by the authorization
// code grant with PKCE, dynamic client registration, resource indicators and rotating refresh tokens.
// The operator's browser is plain HTTP through the provider's own login and consent pages.
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import Provider from 'oidc-provider'
import { z } from 'zod'
import { CookieJar } from './cookie-jar'
import { type Listening, listenOn } from './listen'
import { answerStatelessMcp } from './stateless-mcp'
import { requestGate } from './request-gate'
import { recordingVerifier } from './recording-verifier'

// express (the SDK's middleware is Express middleware) ships no types: the little of it used here.
type ExpressApp = http.RequestListener & {
  use(path: string, handler: unknown): void
  get(path: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => unknown): void
  post(path: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => unknown): void
}
// Resolved from the repository root, not import.meta.url: Playwright loads this file as CommonJS (e2e/person-connections.spec.ts).
const express = createRequire(path.resolve('package.json'))('express') as () => ExpressApp

export interface AuthorizationServer {
  issuer: string
  /** Lifetime of the access tokens issued from now on. */
  setTokenTtl(seconds: number): void
  /** Token endpoint requests by grant type. */
  tokenRequests(grantType: string): number
  /** What the server knows of an access token it issued, or null (unknown or expired). */
  verify(token: string): Promise<{ clientId: string; accountId: string | undefined; scopes: string[]; resource: string | undefined; expiresAt: number } | null>
  /** Holds token requests until `release()`; `held()` counts those waiting. */
  hold(): { release(): void; held(): number }
  /** Revokes every grant it made: their refresh tokens stop working. */
  revokeGrants(): Promise<void>
  close(): Promise<void>
}

export async function startAuthorizationServer(scopes: string[]): Promise<AuthorizationServer> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let ttl = 600
  const grants = new Set<string>()
  const requests = new Map<string, number>()
  const provider = new Provider(issuer, {
    clients: [],
    scopes: ['openid', 'offline_access', ...scopes],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: scopes.join(' '), accessTokenFormat: 'opaque', accessTokenTTL: ttl }),
      },
    },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    // A refresh token for every client allowed the grant, each use answered with a new one.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    pkce: { required: () => true },
  })
  provider.on('refresh_token.saved', (token) => void (token.grantId && grants.add(token.grantId)))
  const counted = (ctx: { oidc?: { params?: { grant_type?: unknown } } }) => {
    const grantType = String(ctx.oidc?.params?.grant_type ?? '')
    requests.set(grantType, (requests.get(grantType) ?? 0) + 1)
  }
  provider.on('grant.success', counted)
  provider.on('grant.error', counted)
  const gate = requestGate()
  const callback = provider.callback()
  server.on('request', async (req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/token')) await gate.pass()
    callback(req, res)
  })
  return {
    issuer,
    setTokenTtl: (seconds) => void (ttl = seconds),
    tokenRequests: (grantType) => requests.get(grantType) ?? 0,
    async verify(token) {
      const found = await provider.AccessToken.find(token)
      if (!found || found.isExpired) return null
      return {
        clientId: found.clientId!,
        accountId: found.accountId,
        scopes: [...(found.scopes ?? [])],
        resource: typeof found.aud === 'string' ? found.aud : Array.isArray(found.aud) ? found.aud[0] : undefined,
        expiresAt: found.exp! * 1000,
      }
    },
    hold: gate.hold,
    async revokeGrants() {
      for (const id of grants) await (await provider.Grant.find(id))?.destroy()
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface ProtectedMcpServer extends Listening {
  /** The MCP endpoint. */
  endpoint: string
  /** The endpoint of a server whose protected-resource metadata claims another resource. */
  hostileEndpoint: string
  /** Bearer tokens it was sent. */
  seen: string[]
}

/** An SDK MCP server with an `echo` tool behind the SDK's bearer-auth middleware, taking only `as`'s tokens for itself. */
export async function startProtectedMcpServer(as: AuthorizationServer, requiredScopes: string[]): Promise<ProtectedMcpServer> {
  const seen: string[] = []
  const app = express()
  const running = await listenOn(http.createServer(app))
  const endpoint = `${running.url}/mcp`
  const hostileEndpoint = `${running.url}/hostile/mcp`
  const metadata = (resource: string) => ({ resource, authorization_servers: [as.issuer], scopes_supported: requiredScopes })
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => json(res, metadata(endpoint)))
  // Metadata of another server: a client that believed it would ask for tokens for https://elsewhere.example.
  app.get('/.well-known/oauth-protected-resource/hostile/mcp', (_req, res) => json(res, metadata('https://elsewhere.example/mcp')))
  for (const [path, resource] of [
    ['/mcp', endpoint],
    ['/hostile/mcp', hostileEndpoint],
  ] as const) {
    app.use(
      path,
      requireBearerAuth({
        verifier: recordingVerifier((token) => as.verify(token), seen),
        requiredScopes,
        expectedResource: new URL(resource),
        resourceMetadataUrl: `${running.url}/.well-known/oauth-protected-resource${new URL(resource).pathname}`,
      }),
    )
    app.post(path, (req, res) => answerStatelessMcp(echoServer, req, res))
  }
  return { ...running, endpoint, hostileEndpoint, seen }
}

function echoServer() {
  const server = new McpServer({ name: 'mcp-authorization-upstream', version: '1.0.0' })
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }))
  return server
}

const json = (res: http.ServerResponse, value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value))

/**
 * An operator's browser at the authorization server: from the authorization URL through its login
 * and consent pages (signing in as `login`) until it is sent to `callbackPrefix`; that address.
 */
export async function authorizeInBrowser(authorizationUrl: string, callbackPrefix: string, login = 'operator@upstream.test'): Promise<string> {
  const browser = new CookieJar()
  let next = authorizationUrl
  for (let step = 0; step < 12 && !next.startsWith(callbackPrefix); step++) {
    const interaction = /\/interaction\/([^/?#]+)$/.exec(new URL(next).pathname)
    let res: Response
    if (interaction) {
      const page = await (await fetch(next, { headers: { cookie: browser.header() } })).text()
      res = await fetch(new URL(`/interaction/${interaction[1]}`, next), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.header() },
        body: new URLSearchParams(page.includes('name="login"') ? { prompt: 'login', login, password: 'any' } : { prompt: 'consent' }),
      })
    } else res = await fetch(next, { redirect: 'manual', headers: { cookie: browser.header() } })
    browser.take(res)
    if (res.status !== 302 && res.status !== 303) throw new Error(`the authorization server answered ${res.status} at ${next}: ${await res.text()}`)
    next = new URL(res.headers.get('location')!, next).href
  }
  if (!next.startsWith(callbackPrefix)) throw new Error(`the browser never came back to ${callbackPrefix}; last at ${next}`)
  return next
}
