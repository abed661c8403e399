// MCP authorization at /mcp: an OAuth-only MCP client (SDK v1's client with an OAuth provider, which
// does the whole dance: 401 → protected resource metadata → authorization server metadata →
// authorize with PKCE → a person signs in and consents → token) connects as the agent its client is
// bound to; a workload with client credentials (SDK v2's ClientCredentialsProvider, on 2026-07-28)
// does too. Dynamic registration is closed until an admin lets an agent accept such clients, and the
// person then picks the agent. Tokens are audience-bound, short-lived, and end with their client.
import http from 'node:http'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ClientCredentialsProvider, Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oauthRoutes } from '@/lib/api/oauth-routes'
import { authHandler } from '@/lib/sign-in/auth-handler'
import { frontPeerHeaders } from '@/lib/request-origin/client-address'
import { prisma } from '@/lib/db'
import { ENDPOINT_METHODS } from '@/lib/sign-in/auth-server-metadata'
import { setUpGatewayRegistry, startRestUpstream, startUpstreamMcp } from '../support/gateway-fixtures'
import { consentAt, MemoryProvider, navigate, REDIRECT } from '../support/oauth-browser'
import { startWebApp, type WebApp } from '../support/web-app'
import { sessionCookie } from './access-fixtures'
import { call } from './helpers'

let app: WebApp
let mcp: Awaited<ReturnType<typeof startUpstreamMcp>>
let rest: Awaited<ReturnType<typeof startRestUpstream>>
let tokens: Awaited<ReturnType<typeof setUpGatewayRegistry>>
let operator: string
let viewer: string

/** A request with a Host header of the test's choosing (fetch always sends the URL's own). */
function withHost(method: string, path: string, host: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method, headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Every endpoint the metadata (at every place it is published) advertises is there: none answers 404 or 405. */
async function expectEveryAdvertisedEndpointAnswers(): Promise<string[]> {
  const documents = [
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/api/auth',
    '/api/auth/.well-known/oauth-authorization-server',
  ]
  const seen = new Set<string>()
  for (const document of documents) {
    const metadata = (await (await fetch(`${app.url}${document}`)).json()) as Record<string, unknown>
    for (const [key, value] of Object.entries(metadata)) {
      if (!key.endsWith('_endpoint') && key !== 'jwks_uri') continue
      seen.add(key)
      expect(ENDPOINT_METHODS[key], `${document} names ${key}, which Toolroom does not know how to call`).toBeDefined()
      const method = ENDPOINT_METHODS[key]
      const answer = await fetch(String(value), {
        method,
        redirect: 'manual',
        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=tro_nothing' } : {}),
      })
      await answer.body?.cancel()
      expect([404, 405], `${document}: ${key} ${method} ${value} answered ${answer.status}`).not.toContain(answer.status)
    }
    expect(metadata.dpop_signing_alg_values_supported).toBeUndefined()
  }
  return [...seen].sort()
}

const consent = (provider: MemoryProvider, cookie: string, body: { accept?: boolean; agent?: string } = {}) => consentAt(app.url, provider, cookie, body)

beforeAll(async () => {
  mcp = await startUpstreamMcp()
  rest = await startRestUpstream()
  tokens = await setUpGatewayRegistry(mcp.url, rest.url, 'sk-oauth-9f8e7d')
  await prisma.$executeRawUnsafe('TRUNCATE "OauthClient", "OauthResource", "OAuthClientRegistration", "OAuthDynamicRegistration" CASCADE')
  app = await startWebApp()
  operator = await sessionCookie('operator', 'oauth')
  viewer = await sessionCookie('viewer', 'oauth')
}, 60_000)

afterAll(async () => {
  await app?.close()
  await mcp?.close()
  await rest?.close()
})

describe('discovery documents and the challenge', () => {
  it('answers /mcp without a credential with 401 and WWW-Authenticate naming the resource metadata (RFC 9728)', async () => {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp", scope="mcp"`)
    const forged = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer tro_forged', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
  })

  it('stores nothing for made-up Host headers, however many (the whole dance at the real origin follows)', async () => {
    const resources = () => prisma.oauthResource.findMany({ select: { identifier: true }, orderBy: { identifier: 'asc' } })
    const before = await resources()
    const hosts = Array.from({ length: 20 }, (_, i) => `made-up-${i}.example:${8000 + i}`)
    const answers = []
    for (const host of hosts) answers.push(await withHost('GET', '/.well-known/oauth-protected-resource/mcp', host))
    expect(await resources()).toEqual(before)
    expect(answers.map((a) => a.status)).toEqual(hosts.map(() => 200))
    expect(JSON.parse(answers[19].body).resource).toBe(`http://${hosts[19]}/mcp`)
    expect((await fetch(`${app.url}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200)
    // Nor does an authorization request there: a signed-out one is sent to sign in first, and a
    // viewer (who may not consent) gets the authorization server's own refusal.
    for (const host of hosts.slice(0, 3)) {
      const query = new URLSearchParams({ client_id: 'any', response_type: 'code', redirect_uri: REDIRECT, resource: `http://${host}/mcp` })
      const authorize = await withHost('GET', `/api/auth/oauth2/authorize?${query}`, host, { 'sec-fetch-mode': 'navigate' })
      expect(authorize.status).toBe(302)
      expect(authorize.headers.location).toMatch(/^\/sign-in\?/)
      await withHost('GET', `/api/auth/oauth2/authorize?${query}`, host, { cookie: viewer, 'sec-fetch-mode': 'navigate' })
    }
    expect(await resources()).toEqual(before)
  })

  it('answers a Host that names no host without any address of its own', async () => {
    // host:99999 and [zz] have the shape of a host but no URL can hold them (the fuzzer found a 500).
    for (const host of ['under_score.example', 'a..b', 'x:99999999', 'host:99999', '[zz]']) {
      const metadata = await withHost('GET', '/.well-known/oauth-protected-resource/mcp', host)
      expect(metadata.status).toBe(400)
      expect(JSON.parse(metadata.body).detail).toMatch(/Host header/)
      expect(metadata.body).not.toMatch(/localhost|127\.0\.0\.1/)
      const mcpAnswer = await withHost('POST', '/mcp', host, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{}')
      expect(mcpAnswer.status).toBe(401)
      expect(mcpAnswer.headers['www-authenticate']).not.toMatch(/localhost|127\.0\.0\.1|resource_metadata/)
      expect(mcpAnswer.body).not.toMatch(/localhost|127\.0\.0\.1/)
      // Nor does the authorization server fall back to an address of its own.
      for (const [method, path] of [
        ['GET', '/.well-known/oauth-authorization-server'],
        ['GET', '/.well-known/oauth-authorization-server/api/auth'],
        ['GET', '/api/auth/.well-known/oauth-authorization-server'],
        ['GET', `/api/auth/oauth2/authorize?client_id=x&response_type=code&resource=${encodeURIComponent(`http://${host}/mcp`)}`],
        ['POST', '/api/auth/oauth2/token'],
      ]) {
        const answer = await withHost(
          method,
          path,
          host,
          { 'content-type': 'application/x-www-form-urlencoded' },
          method === 'POST' ? 'grant_type=client_credentials' : undefined,
        )
        expect(answer.status, `${method} ${path}`).toBe(400)
        expect(`${answer.body} ${answer.headers.location ?? ''}`).not.toMatch(/localhost|127\.0\.0\.1/)
      }
    }
    // An agent credential is not bound to an origin: it still works.
    const ping = await withHost(
      'POST',
      '/mcp',
      'under_score.example',
      { authorization: `Bearer ${tokens.tokenA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    )
    expect(ping.status).toBe(200)
  })

  it('publishes the protected resource and authorization server metadata', async () => {
    const resource = await (await fetch(`${app.url}/.well-known/oauth-protected-resource/mcp`)).json()
    expect(resource).toEqual({
      resource: `${app.url}/mcp`,
      authorization_servers: [`${app.url}/api/auth`],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
      resource_name: 'Toolroom MCP gateway',
    })
    const server = await (await fetch(`${app.url}/.well-known/oauth-authorization-server/api/auth`)).json()
    expect(server).toMatchObject({
      issuer: `${app.url}/api/auth`,
      token_endpoint: `${app.url}/api/auth/oauth2/token`,
      code_challenge_methods_supported: ['S256'],
    })
    expect(server.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']))
    // Nobody lets dynamically registered clients in yet: no registration endpoint, and the endpoint refuses.
    expect(server.registration_endpoint).toBeUndefined()
    const register = await fetch(`${app.url}/api/auth/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    })
    expect(register.status).toBe(403)
    expect((await register.json()).error).toBe('access_denied')
  })

  it('advertises only endpoints that answer', async () => {
    expect(await expectEveryAdvertisedEndpointAnswers()).toEqual(['authorization_endpoint', 'revocation_endpoint', 'token_endpoint'])
  })
})

describe("a person's MCP client (authorization code with PKCE), registered by an admin for agent-a", () => {
  let clientId: string
  let provider: MemoryProvider

  it('does the whole dance with the SDK and then lists and calls tools as agent-a', async () => {
    const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'Claude on my laptop', agent: 'gw/agent-a', kind: 'authorization_code', redirectUris: [REDIRECT] },
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ kind: 'authorization_code', registration: 'admin', agent: { namespace: 'gw', name: 'agent-a' } })
    expect(created.json.clientSecret).toBeUndefined()
    clientId = created.json.clientId
    provider = new MemoryProvider({ client_id: clientId })

    const first = new Client({ name: 'oauth-only', version: '1' })
    await expect(first.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))).rejects.toThrow(UnauthorizedError)
    expect(provider.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256')
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${app.url}/mcp`)
    const decided = await consent(provider, operator)
    expect(decided.status).toBe(200)
    const back = new URL(decided.json.redirectTo!)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('iss')).toBe(`${app.url}/api/auth`)
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider })
    await transport.finishAuth(back.searchParams.get('code')!)
    expect(provider.tokens()?.access_token).toMatch(/^tro_/)
    expect(provider.tokens()?.expires_in).toBeLessThanOrEqual(600)

    const client = new Client({ name: 'oauth-only', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('upstream.echo')
    expect(names).not.toContain('secret.only_b')
    expect((await client.callTool({ name: 'upstream.echo', arguments: { text: 'via oauth' } })).structuredContent).toEqual({ echo: 'via oauth' })
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'upstream.echo' }, orderBy: { startedAt: 'desc' } })
    expect(row).toMatchObject({ agentName: 'agent-a', outcome: 'succeeded' })
    await client.close()
  })

  it('refuses a consent from a viewer and from an API token, and the token for another resource', async () => {
    const other = new MemoryProvider({ client_id: clientId })
    const first = new Client({ name: 'x', version: '1' })
    await expect(first.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: other }))).rejects.toThrow(UnauthorizedError)
    expect((await consent(other, viewer)).status).toBe(403)
    const byToken = await call(oauthRoutes.consent, '/api/v1/oauth/consent', { method: 'POST', body: { oauthQuery: 'client_id=x', accept: true } })
    expect(byToken.status).toBe(403)
    expect(byToken.json.detail).toMatch(/signed-in person/)
    // The same token, presented at another origin of the same gateway, is for another resource.
    const token = provider.tokens()!.access_token
    const elsewhere = await fetch(`${app.url.replace('127.0.0.1', 'localhost')}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(elsewhere.status).toBe(401)
  })

  it('ends every token of the client when an admin revokes it', async () => {
    const token = provider.tokens()!.access_token
    const ping = () =>
      fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
    expect((await ping()).status).toBe(200)
    const revoked = await call(oauthRoutes.revokeClient, `/api/v1/oauth/clients/${clientId}/revoke`, { method: 'POST', params: { clientId } })
    expect(revoked.status).toBe(200)
    expect(revoked.json).toMatchObject({ disabled: true, activeTokens: 0 })
    expect((await ping()).status).toBe(401)
  })
})

describe('a workload (client credentials) on 2026-07-28', () => {
  it('gets a token with its secret and calls tools as its agent; agent credentials keep working beside', async () => {
    const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'nightly job', agent: 'gw/agent-b', kind: 'client_credentials' },
    })
    expect(created.status).toBe(201)
    expect(created.json.clientSecret).toMatch(/^trc_/)
    const stored = await prisma.oauthClient.findUniqueOrThrow({ where: { clientId: created.json.clientId } })
    expect(stored.clientSecret).not.toContain(created.json.clientSecret.slice(4))
    const provider = new ClientCredentialsProvider({
      clientId: created.json.clientId,
      clientSecret: created.json.clientSecret,
      expectedIssuer: `${app.url}/api/auth`,
      scope: 'mcp',
    })
    const client = new ModernClient({ name: 'workload', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new ModernTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('secret.only_b')
    expect(names).not.toContain('things.create')
    await client.close()
    const credential = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.tokenA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(credential.status).toBe(200)
  })

  it('refuses a wrong secret, a client that is not for client credentials, and bad registrations', async () => {
    const wrong = await fetch(`${app.url}/api/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('nobody:trc_nothing').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource: `${app.url}/mcp` }),
    })
    expect(wrong.status).toBe(401)
    const noRedirect = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'x', agent: 'gw/agent-a', kind: 'authorization_code' },
    })
    expect(noRedirect.status).toBe(422)
    const insecure = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'x', agent: 'gw/agent-a', kind: 'authorization_code', redirectUris: ['http://evil.example/cb', 'javascript:alert(1)'] },
    })
    expect(insecure.status).toBe(422)
    expect(insecure.json.errors[0]).toMatchObject({ field: 'redirectUris[0]', rule: 'redirect-uri' })
    const unknownAgent = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'x', agent: 'gw/nobody', kind: 'client_credentials' },
    })
    expect(unknownAgent.status).toBe(404)
    const hostile = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'x'.repeat(101), agent: 'gw/agent-a', kind: 'client_credentials', extra: 1 },
    })
    expect(hostile.status).toBe(422)
    expect(hostile.json.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['name']))
  })
})

describe('the token endpoint, behind one shared address', () => {
  /** A client credentials token request; through the front (this test's address), or in-process from `address`. */
  async function tokenRequest(clientId: string, secret: string, address?: string) {
    const init = {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        // In-process, as the front passes it on: the peer, and the Host it was reached at.
        ...(address ? { ...frontPeerHeaders(address), 'x-forwarded-host': new URL(app.url).host } : {}),
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource: `${app.url}/mcp` }).toString(),
    }
    const res = address ? await authHandler(new Request(`${app.url}/api/auth/oauth2/token`, init)) : await fetch(`${app.url}/api/auth/oauth2/token`, init)
    await res.body?.cancel()
    return res
  }
  const workload = async (name: string) => {
    const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name, agent: 'gw/agent-b', kind: 'client_credentials' },
    })
    expect(created.status).toBe(201)
    return { id: created.json.clientId as string, secret: created.json.clientSecret as string }
  }

  it("counts failures per client and address: a stranger's bogus requests stop neither other clients nor this one elsewhere", async () => {
    const x = await workload('x, under attack')
    const y = await workload('y, behind the same address')
    // Successes use up nothing: more than the limit, all issued.
    for (let i = 0; i < 25; i++) expect((await tokenRequest(y.id, y.secret)).status).toBe(200)
    const bogus: number[] = []
    for (let i = 0; i < 25; i++) bogus.push((await tokenRequest(x.id, `trc_guess${i}`)).status)
    // Guessing one client's secret is still limited...
    expect(bogus.slice(0, 20)).toEqual(Array(20).fill(401))
    expect(bogus.slice(20)).toEqual(Array(5).fill(429))
    const limited = await tokenRequest(x.id, 'trc_guess')
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    // Revocation checks the same secret: its guesses share the allowance.
    const revoke = await fetch(`${app.url}/api/auth/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${x.id}:trc_guess`).toString('base64')}` },
      body: 'token=tro_nothing',
    })
    expect(revoke.status).toBe(429)
    // ...but another client behind the same address gets its tokens, and so does this one from elsewhere.
    expect((await tokenRequest(y.id, y.secret)).status).toBe(200)
    expect((await tokenRequest(x.id, x.secret, '198.51.100.7')).status).toBe(200)
  }, 60_000)

  it('does not limit authorization requests per address: they guess nothing (the person signs in, or is signed in)', async () => {
    const query = new URLSearchParams({ client_id: 'any', response_type: 'code', redirect_uri: REDIRECT, resource: `${app.url}/mcp` })
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await navigate(new URL(`/api/auth/oauth2/authorize?${query}&state=${i}`, app.url))).status)
    expect(statuses).toEqual(Array(40).fill(302))
  })
})

describe('dynamic registration, where an admin allows it', () => {
  it('lets an SDK client register itself once an agent accepts such clients; the person picks that agent', async () => {
    const allowed = await call(oauthRoutes.setDynamicRegistration, '/api/v1/oauth/dynamic-registration/gw%2Fagent-b', {
      method: 'PUT',
      params: { agent: 'gw/agent-b' },
      body: { allowed: true },
    })
    expect(allowed.status).toBe(200)
    const server = await (await fetch(`${app.url}/.well-known/oauth-authorization-server/api/auth`)).json()
    expect(server.registration_endpoint).toBe(`${app.url}/api/auth/oauth2/register`)
    expect(await expectEveryAdvertisedEndpointAnswers()).toContain('registration_endpoint')

    const provider = new MemoryProvider()
    const first = new Client({ name: 'self-registered', version: '1' })
    await expect(first.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))).rejects.toThrow(UnauthorizedError)
    const registered = provider.clientInformation()!
    expect(registered.client_id).toBeTruthy()
    // Not an agent it may act as: refused; the one the admin allowed: bound for good.
    expect((await consent(provider, operator, { agent: 'gw/agent-a' })).status).toBe(403)
    const decided = await consent(provider, operator, { agent: 'gw/agent-b' })
    expect(decided.status).toBe(200)
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider })
    await transport.finishAuth(new URL(decided.json.redirectTo!).searchParams.get('code')!)
    const client = new Client({ name: 'self-registered', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('secret.only_b')
    await client.close()
    const listed = await call(oauthRoutes.listClients, '/api/v1/oauth/clients')
    expect(listed.json.items.find((c: { clientId: string }) => c.clientId === registered.client_id)).toMatchObject({
      registration: 'dynamic',
      agent: { name: 'agent-b' },
    })
    expect(listed.json.dynamicRegistration.map((a: { name: string }) => a.name)).toEqual(['agent-b'])

    await call(oauthRoutes.setDynamicRegistration, '/api/v1/oauth/dynamic-registration/gw%2Fagent-b', {
      method: 'PUT',
      params: { agent: 'gw/agent-b' },
      body: { allowed: false },
    })
    const closed = await fetch(`${app.url}/api/auth/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    })
    expect(closed.status).toBe(403)
  })

  it('records consents and client changes in the audit log', async () => {
    const actions = (await prisma.auditEvent.findMany({ where: { action: { startsWith: 'oauth_' } }, select: { action: true } })).map((e) => e.action)
    expect(actions).toEqual(
      expect.arrayContaining([
        'oauth_client.created',
        'oauth_client.consented',
        'oauth_client.revoked',
        'oauth_dynamic_registration.allowed',
        'oauth_dynamic_registration.stopped',
      ]),
    )
  })
})
