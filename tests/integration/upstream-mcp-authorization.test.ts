// Upstream MCP servers that follow MCP authorization (docs/design/gateway.md, "Connected upstreams"):
// a LanguageTool with `auth.oauth2.grantType: authorization_code`, whose server (an SDK MCP server
// behind the SDK's bearer-auth middleware) answers 401 naming its protected-resource metadata, whose
// authorization server is a real oidc-provider. An operator connects it through the API and the
// provider's own login and consent pages (plain HTTP for the browser); discovery and the gateway then
// use the access token, refreshed with the rotating refresh token. A revoked grant says reconnect;
// a replayed state, another operator's callback and metadata describing another server are refused.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { upstreamConnectionRoutes } from '@/lib/api/upstream-connection-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { openSecretValues } from '@/lib/secrets/encryption'
import { CALLBACK_PATH } from '@/lib/upstream-auth/start-upstream-connection'
import { agentClient, spawnGateway } from '../support/gateway-fixtures'
import { type Listening, listenOn } from '../support/listen'
import {
  type AuthorizationServer,
  authorizeInBrowser,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '../support/mcp-authorization'
import { until } from '../support/until'
import { emailFor, sessionCookie } from './access-fixtures'
import { applyManifest, call, issueAgentCredential, resetDatabase, TEST_ORIGIN } from './helpers'

const NS = 'mcpauth'
let as: AuthorizationServer
let upstream: ProtectedMcpServer
let gateway: Listening
let agentToken: string
let operator: string
let otherOperator: string

const connectionPath = (name: string) => `/api/v1/languagetools/${name}/connection?namespace=${NS}`
const getConnection = (name: string, cookie = operator) => call(upstreamConnectionRoutes.get, connectionPath(name), { params: { id: name }, as: { cookie } })
const startConnecting = (name: string, cookie = operator) =>
  call(upstreamConnectionRoutes.start, connectionPath(name), { method: 'POST', params: { id: name }, as: { cookie } })
const callback = (url: string, cookie = operator) => {
  const target = new URL(url)
  return call(upstreamConnectionRoutes.callback, `${target.pathname}${target.search}`, { as: { cookie } })
}

/** The whole connection as an operator makes it: the authorization URL, the provider's pages, the callback. */
async function connect(name: string) {
  const started = await startConnecting(name)
  expect(started.status, started.text).toBe(200)
  const back = await authorizeInBrowser(started.json.authorizationUrl, `${TEST_ORIGIN}${CALLBACK_PATH}`)
  const finished = await callback(back)
  expect(finished.status, finished.text).toBe(200)
  return { started, finished }
}

async function callEcho(server: string, text: string) {
  const client: Client = await agentClient(gateway.url, agentToken)
  try {
    return await client.callTool({ name: `${server}.echo`, arguments: { text } })
  } finally {
    await client.close()
  }
}

/** The JSON-RPC error a call is refused with (a call without an upstream token never reaches the server). */
async function refusedEcho(server: string): Promise<string | null> {
  try {
    await callEcho(server, 'refused?')
    return null
  } catch (e) {
    expect(e).toBeInstanceOf(McpError)
    return (e as McpError).message
  }
}

const resultText = (result: Awaited<ReturnType<typeof callEcho>>) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n')

async function sealedRow(name: string) {
  const row = await prisma.upstreamConnection.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name } } })
  return { row, values: row.ciphertext && row.keyId ? openSecretValues(row.ciphertext, row.keyId) : null }
}

const connectedServer = (name: string, endpoint: string) => `
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${name}, namespace: ${NS} }
spec:
  endpoint: "${endpoint}"
  auth:
    type: oauth2
    oauth2: { grantType: authorization_code, scopes: [tools.read] }`

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "UpstreamConnection", "UpstreamAuthorization"')
  as = await startAuthorizationServer(['tools.read'])
  upstream = await startProtectedMcpServer(as, ['tools.read'])
  await applyManifest(`
${connectedServer('linked', upstream.endpoint)}
${connectedServer('expiring', upstream.endpoint)}
${connectedServer('revoked', upstream.endpoint)}
${connectedServer('replicas', upstream.endpoint)}
${connectedServer('hostile', upstream.hostileEndpoint)}
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: ${NS} }
spec:
  languageTools: [linked, expiring, revoked, replicas]
`)
  // The tools the agent calls, as discovery would have found them: a call needs only the connection.
  for (const name of ['expiring', 'revoked', 'replicas'])
    await prisma.languageTool.update({
      where: { namespace_name: { namespace: NS, name } },
      data: { toolSchemas: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }], phase: 'Ready' },
    })
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'caller' } } })
  agentToken = await issueAgentCredential(agent.id)
  operator = await sessionCookie('operator', 'mcpauth')
  otherOperator = await sessionCookie('operator', 'mcpauth-other')
  gateway = await listenOn(createGatewayServer({ port: 0 }))
}, 60_000)

afterAll(async () => {
  await closeMcpSessions()
  await gateway?.close()
  await upstream?.close()
  await as?.close()
})

describe('a LanguageTool whose server follows MCP authorization', () => {
  it('needs connecting before anything else: discovery fails saying so, and the API says not connected', async () => {
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'linked' } } })
    const run = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(run.status).toBe('failed')
    expect(run.error).toContain('needs connecting: an operator connects it from its page')
    const state = await getConnection('linked')
    expect(state.status, state.text).toBe(200)
    expect(state.json).toMatchObject({ state: 'not_connected', connectedAt: null })
    expect(upstream.seen).toEqual([])
  })

  it('is connected by an operator (registered client, PKCE, resource), then discovered and called with the token, which no answer shows', async () => {
    const { started, finished } = await connect('linked')
    const authorization = new URL(started.json.authorizationUrl)
    expect(`${authorization.origin}`).toBe(as.issuer)
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('resource')).toBe(upstream.endpoint)
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${TEST_ORIGIN}${CALLBACK_PATH}`)
    expect(authorization.searchParams.get('client_id'), 'a client registered dynamically').toBeTruthy()
    expect(finished.contentType).toBe('text/html; charset=utf-8')
    expect(finished.text).toContain(`content="0;url=/language-tools/linked?namespace=${NS}&#38;connected=1"`)

    const state = await getConnection('linked')
    expect(state.json).toMatchObject({
      state: 'connected',
      scopes: ['tools.read'],
      connectedBy: emailFor('operator', 'mcpauth'),
      authorizationServer: as.issuer,
    })

    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'linked' } } })
    const run = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded' })
    const discovered = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    expect((discovered.toolSchemas as { name: string }[]).map((t) => t.name)).toEqual(['echo'])

    const result = await callEcho('linked', 'through a connection')
    expect(result.isError ?? false, resultText(result)).toBe(false)
    expect(resultText(result)).toBe('through a connection')
    const token = upstream.seen.at(-1)!
    expect(await as.verify(token)).toMatchObject({ resource: upstream.endpoint, scopes: ['tools.read'] })

    const { row, values } = await sealedRow('linked')
    expect(values).toMatchObject({ accessToken: token })
    const stored = await prisma.upstreamAuthorization.findMany()
    for (const text of [
      started.text,
      (await getConnection('linked')).text,
      JSON.stringify({ ...row, ciphertext: null }),
      Buffer.from(row.ciphertext!).toString('latin1'),
      JSON.stringify(stored),
    ]) {
      expect(text).not.toContain(token)
      expect(text).not.toContain(values!.refreshToken)
    }
  })

  it('refuses a replayed state, and a callback by another operator than the one who started it', async () => {
    const started = await startConnecting('linked')
    const back = await authorizeInBrowser(started.json.authorizationUrl, `${TEST_ORIGIN}${CALLBACK_PATH}`)
    const stranger = await callback(back, otherOperator)
    expect(stranger.status, stranger.text).toBe(403)
    expect(stranger.json.errors).toEqual([expect.objectContaining({ field: 'state', rule: 'same-operator' })])
    // The stranger's try did not spend it: its operator still finishes it, once.
    expect((await callback(back)).status).toBe(200)
    const replayed = await callback(back)
    expect(replayed.status, replayed.text).toBe(400)
    expect(replayed.json.errors).toEqual([expect.objectContaining({ field: 'state', rule: 'pending-connection' })])
    expect((await callback(`${TEST_ORIGIN}${CALLBACK_PATH}?state=made-up&code=x`)).status).toBe(400)
  })

  it('refreshes an expired access token with the refresh token, and stores the rotated refresh token', async () => {
    as.setTokenTtl(3)
    await connect('expiring')
    as.setTokenTtl(600)
    const first = await callEcho('expiring', 'one')
    expect(first.isError ?? false, resultText(first)).toBe(false)
    const firstToken = upstream.seen.at(-1)!
    const before = await sealedRow('expiring')
    const refreshes = as.tokenRequests('refresh_token')
    // Issued for three seconds: calls go on, and one after its refresh time carries a new one.
    await until('a refreshed access token', async () => {
      const result = await callEcho('expiring', 'again')
      expect(result.isError ?? false, resultText(result)).toBe(false)
      return upstream.seen.at(-1) !== firstToken
    })
    expect(as.tokenRequests('refresh_token')).toBe(refreshes + 1)
    const after = await sealedRow('expiring')
    expect(after.values!.accessToken).toBe(upstream.seen.at(-1))
    expect(after.values!.refreshToken, 'the rotated refresh token is the one kept').not.toBe(before.values!.refreshToken)
    expect(after.row.refreshedAt).not.toBeNull()
  })

  it('refreshes once when two gateway processes need a new access token at the same moment', async () => {
    as.setTokenTtl(3)
    await connect('replicas')
    as.setTokenTtl(600)
    const gateways = await Promise.all([spawnGateway(), spawnGateway()])
    const clients: Client[] = []
    let gate: ReturnType<AuthorizationServer['hold']> | undefined
    try {
      clients.push(...(await Promise.all(gateways.map((g) => agentClient(g.url, agentToken)))))
      await until('the access token is due for a refresh', async () => (await sealedRow('replicas')).row.refreshAt!.getTime() <= Date.now())
      const refreshes = as.tokenRequests('refresh_token')
      gate = as.hold()
      const calls = clients.map((c) => c.callTool({ name: 'replicas.echo', arguments: { text: 'both' } }))
      // The first process's refresh is held at the server; the second waits on the connection's lock.
      await until('one refresh held and the other process waiting for the lock', async () => {
        const waiting = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`
        return gate!.held() === 1 && waiting[0].n >= 1
      })
      gate.release()
      const results = await Promise.all(calls)
      expect(results.map((r) => r.isError ?? false)).toEqual([false, false])
      // A second refresh would have sent the rotated-away refresh token, which the server refuses (and revokes the grant for).
      expect(as.tokenRequests('refresh_token')).toBe(refreshes + 1)
      expect(new Set(upstream.seen.slice(-2)).size).toBe(1)
      expect((await getConnection('replicas')).json).toMatchObject({ state: 'connected' })
    } finally {
      gate?.release()
      await Promise.all(clients.map((c) => c.close().catch(() => {})))
      await Promise.all(gateways.map((g) => g.stop()))
    }
  }, 120_000)

  it('says reconnect once the authorization server no longer accepts the refresh token', async () => {
    as.setTokenTtl(3)
    await connect('revoked')
    as.setTokenTtl(600)
    expect((await callEcho('revoked', 'before')).isError ?? false).toBe(false)
    await as.revokeGrants()
    const refused = await until('a call refused for want of a token', () => refusedEcho('revoked'))
    expect(refused).toContain(
      'the MCP server "mcpauth/revoked": reconnect: the authorization server no longer accepts its refresh token (the authorization server answered invalid_grant',
    )
    const state = await getConnection('revoked')
    expect(state.json).toMatchObject({ state: 'reconnect' })
    expect(state.json.message).toContain('invalid_grant')
    expect((await sealedRow('revoked')).row.ciphertext, 'the refused tokens are dropped').toBeNull()
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'revoked' } } })
    expect((await runMcpDiscovery({ id: server.id, trigger: 'manual' })).error).toContain('reconnect')
    // Reconnecting mends it.
    await connect('revoked')
    expect((await callEcho('revoked', 'mended')).isError ?? false).toBe(false)
  })

  it('refuses protected-resource metadata that describes another server, before any browser or client is sent there', async () => {
    const registrations = as.tokenRequests('authorization_code')
    const res = await startConnecting('hostile')
    expect(res.status, res.text).toBe(422)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'protectedResourceMetadata.resource', rule: 'rfc9728-resource' })])
    expect(res.json.detail).toContain('https://elsewhere.example/mcp')
    expect(await prisma.upstreamAuthorization.count({ where: { name: 'hostile' } })).toBe(0)
    expect(as.tokenRequests('authorization_code')).toBe(registrations)
  })

  it('forgets the tokens on disconnect: calls then need it connected again', async () => {
    const res = await call(upstreamConnectionRoutes.disconnect, connectionPath('linked'), {
      method: 'DELETE',
      params: { id: 'linked' },
      as: { cookie: operator },
    })
    expect(res.status, res.text).toBe(204)
    expect(await prisma.upstreamConnection.count({ where: { name: 'linked' } })).toBe(0)
    expect(await refusedEcho('linked')).toContain('the MCP server "mcpauth/linked": needs connecting: an operator connects it from its page')
    expect((await getConnection('linked')).json).toMatchObject({ state: 'not_connected' })
  })
})
