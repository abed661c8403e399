// OAuth 2.1 to upstreams, as a service (docs/design/gateway.md, "Upstream credentials"): a REST Tool
// and a LanguageTool whose credentials are `auth: {type: oauth2}`, against a real authorization server
// (oidc-provider) and upstreams that accept only the tokens it issued (a REST server asking the
// server's own token store; an SDK MCP server behind the SDK's bearer-auth middleware). Tokens are
// fetched once and cached, refreshed after expiry, fetched once by concurrent calls and by two
// gateway processes at once, never shown by any API or stored in plain text; a refusing or absent
// server is a Tool condition and a call error that names it.
import http from 'node:http'
import { createRequire } from 'node:module'
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { statsRoutes } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { forgetUpstreamTokens } from '@/lib/upstream-auth/get-upstream-token'
import { agentClient, spawnGateway } from '../support/gateway-fixtures'
import { listen, type Listening, listenOn } from '../support/listen'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'
import { recordingVerifier } from '../support/recording-verifier'

// express (the SDK's bearer-auth middleware is an Express middleware) ships no types, and
// @types/express is not installed: the little of it this test uses.
type ExpressApp = http.RequestListener & {
  use(path: string, handler: unknown): void
  post(path: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => unknown): void
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp

const CLIENT_SECRET = 'idp-client-secret-UNMISTAKABLE-41f7'
const RESOURCE = 'https://api.example.com'
const MCP_RESOURCE = 'https://mcp.example.com'

let idp: TestIdp
let restUpstream: Listening & { seen: string[] }
let mcpUpstream: Listening & { seen: string[] }
let gateway: Listening
let agentToken: string
let deadIssuer: string

/** A REST upstream that takes only tokens the IdP issued for RESOURCE with the scope tickets.write. */
async function startRestUpstream(): Promise<Listening & { seen: string[] }> {
  const seen: string[] = []
  const running = await listen(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (token) seen.push(token)
    const known = token ? await idp.verify(token) : null
    const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    if (!known || known.resource !== RESOURCE || !known.scopes.includes('tickets.write')) return send(401, { error: 'invalid_token' })
    // A careless upstream that echoes the credential it was sent in its error answer.
    if (req.url?.startsWith('/echoing')) return send(400, { error: 'no such ticket', youSent: req.headers.authorization })
    send(200, { ok: true, client: known.clientId })
  })
  return { ...running, seen }
}

/** An SDK MCP server behind the SDK's own bearer-auth middleware, verifying against the IdP. */
async function startMcpUpstream(): Promise<Listening & { seen: string[] }> {
  const seen: string[] = []
  const app = express()
  app.use(
    '/mcp',
    requireBearerAuth({
      verifier: recordingVerifier((token) => idp.verify(token), seen),
      requiredScopes: ['tools.read'],
      expectedResource: new URL(MCP_RESOURCE),
    }),
  )
  app.post('/mcp', (req, res) =>
    answerStatelessMcp(
      () => {
        const server = new McpServer({ name: 'oauth-upstream', version: '1.0.0' })
        server.registerTool(
          'echo',
          { description: 'Echoes text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
          async ({ text }) => ({
            content: [{ type: 'text', text }],
          }),
        )
        return server
      },
      req,
      res,
    ),
  )
  const running = await listenOn(http.createServer(app))
  return { ...running, seen }
}

const oauthTool = (name: string, opts: { issuer?: string; secret?: string; scopes?: string[]; tokenUrl?: string; path?: string } = {}) => `
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: oa }
spec:
  type: rest
  description: ${name} with an OAuth credential
  endpoint:
    method: POST
    url: "${restUpstream.url}${opts.path ?? '/tickets'}"
    auth:
      type: oauth2
      oauth2:
        grantType: client_credentials
        ${opts.tokenUrl ? `tokenUrl: "${opts.tokenUrl}"` : `issuer: "${opts.issuer ?? idp.issuer}"`}
        clientId: toolroom
        clientSecretRef: { name: ${opts.secret ?? 'idp-client'} }
        scopes: [${(opts.scopes ?? ['tickets.write']).join(', ')}]
        resource: "${RESOURCE}"
  inputSchema: { type: object }
  sideEffects: { level: read_only }`

const restCall = (toolId: string, token = agentToken) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: { arguments: { subject: 'hello' } },
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

const TOOLS = [
  'tickets.create',
  'tickets.echoing',
  'tickets.expiring',
  'tickets.concurrent',
  'tickets.replicas',
  'tickets.down',
  'tickets.wrong',
  'tickets.direct',
]

async function toolStatus(name: string) {
  const res = await call(resourceRoutes('Tool').get, `/api/v1/tools/${name}?namespace=oa`, { params: { id: name } })
  expect(res.status, res.text).toBe(200)
  const conditions = res.json.status.conditions as { type: string; status: string; reason: string; message: string }[]
  return { phase: res.json.status.phase as string, token: conditions.find((c) => c.type === 'TokenIssued'), text: res.text }
}

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "UpstreamToken", "ToolCall"')
  idp = await startTestIdp([{ clientId: 'toolroom', clientSecret: CLIENT_SECRET }], ['tickets.write', 'tickets.read', 'tools.read'])
  restUpstream = await startRestUpstream()
  mcpUpstream = await startMcpUpstream()
  const dead = await listen((_req, res) => res.end())
  deadIssuer = dead.url
  await dead.close()
  // Each test has its own Tool, and so its own credential (scopes differ, so the keys do).
  await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: idp-client, namespace: oa }
spec: { stringData: { secret: "${CLIENT_SECRET}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: wrong-client, namespace: oa }
spec: { stringData: { secret: "not-the-secret" } }
${oauthTool('tickets.create')}
${oauthTool('tickets.echoing', { path: '/echoing' })}
${oauthTool('tickets.expiring', { scopes: ['tickets.write', 'tickets.read'] })}
${oauthTool('tickets.concurrent', { scopes: ['tickets.read', 'tickets.write', 'openid'] })}
${oauthTool('tickets.replicas', { scopes: ['openid', 'tickets.write'] })}
${oauthTool('tickets.down', { issuer: deadIssuer })}
${oauthTool('tickets.wrong', { secret: 'wrong-client' })}
${oauthTool('tickets.direct', { tokenUrl: `${idp.issuer}/token`, scopes: ['tickets.write', 'tools.read'] })}
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: guarded, namespace: oa }
spec:
  endpoint: "${mcpUpstream.url}/mcp"
  auth:
    type: oauth2
    oauth2: { grantType: client_credentials, issuer: "${idp.issuer}", clientId: toolroom, clientSecretRef: { name: idp-client }, scopes: [tools.read], resource: "${MCP_RESOURCE}" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: oa }
spec:
  languageTools: [guarded]
  grants: [${TOOLS.join(', ')}]
`)
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'oa', name: 'caller' } } })
  agentToken = await issueAgentCredential(agent.id)
  gateway = await listenOn(createGatewayServer({ port: 0 }))
}, 60_000)

afterAll(async () => {
  await closeMcpSessions()
  await gateway?.close()
  await restUpstream?.close()
  await mcpUpstream?.close()
  await idp?.close()
})

describe('a REST tool with an OAuth credential', () => {
  it('gets a token from the issuer it discovered, sends it, and uses it again until shortly before it expires', async () => {
    const before = idp.tokenRequests()
    const first = await restCall('tickets.create')
    expect(first.status, first.text).toBe(200)
    expect(first.json.result.structuredContent).toEqual({ ok: true, client: 'toolroom' })
    expect(idp.tokenRequests()).toBe(before + 1)
    const token = restUpstream.seen.at(-1)!
    expect(await idp.verify(token)).toMatchObject({ clientId: 'toolroom', resource: RESOURCE })

    expect((await restCall('tickets.create')).status).toBe(200)
    expect(idp.tokenRequests(), 'the second call used the cached token').toBe(before + 1)
    expect(restUpstream.seen.at(-1)).toBe(token)

    // Another process (memory empty) reads the sealed row instead of asking again.
    forgetUpstreamTokens()
    expect((await restCall('tickets.create')).status).toBe(200)
    expect(idp.tokenRequests()).toBe(before + 1)
    expect((await toolStatus('tickets.create')).token).toMatchObject({ status: 'True', reason: 'TokenIssued' })
  })

  it('never shows the token: not in the call answer, the calls API, the Tool, nor the stored call; at rest it is sealed', async () => {
    const answer = await restCall('tickets.create')
    const token = restUpstream.seen.at(-1)!
    const callId = answer.json.callId as string
    const listed = await call(statsRoutes.calls, '/api/v1/calls?limit=50')
    const one = await call(statsRoutes.call, `/api/v1/calls/${callId}`, { params: { id: callId } })
    const tool = await toolStatus('tickets.create')
    const stored = await prisma.toolCall.findFirstOrThrow({ where: { id: callId } })
    const rows = await prisma.upstreamToken.findMany()
    for (const text of [
      answer.text,
      listed.text,
      one.text,
      tool.text,
      JSON.stringify(stored),
      JSON.stringify(rows),
      Buffer.concat(rows.map((r) => Buffer.from(r.ciphertext ?? []))).toString('latin1'),
    ])
      expect(text).not.toContain(token)
    expect(one.status).toBe(200)
  })

  it('scrubs the token from what an upstream that echoes it answered, as every injected secret', async () => {
    const res = await restCall('tickets.echoing')
    expect(res.status).toBe(502)
    const token = restUpstream.seen.at(-1)!
    expect(await idp.verify(token)).not.toBeNull()
    const stored = await prisma.toolCall.findFirstOrThrow({ where: { id: res.json.callId } })
    expect(stored.upstreamExcerpt).toContain('[REDACTED]')
    const one = await call(statsRoutes.call, `/api/v1/calls/${res.json.callId}`, { params: { id: res.json.callId } })
    for (const text of [res.text, JSON.stringify(stored), one.text]) expect(text).not.toContain(token)
  })

  it('fetches a new token once the one it has is about to expire', async () => {
    idp.setTokenTtl(3)
    const before = idp.tokenRequests()
    expect((await restCall('tickets.expiring')).status).toBe(200)
    const first = restUpstream.seen.at(-1)!
    idp.setTokenTtl(600)
    // The token was issued for three seconds: calls go on, and one after its refresh time carries a new one.
    await until('a refreshed token', async () => {
      const res = await restCall('tickets.expiring')
      expect(res.status, res.text).toBe(200)
      return restUpstream.seen.at(-1) !== first
    })
    expect(idp.tokenRequests()).toBe(before + 2)
    expect(await idp.verify(restUpstream.seen.at(-1)!)).toMatchObject({ clientId: 'toolroom' })
  })

  it('asks once for concurrent calls that all need a token', async () => {
    const before = idp.tokenRequests()
    const answers = await Promise.all(Array.from({ length: 6 }, () => restCall('tickets.concurrent')))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(idp.tokenRequests()).toBe(before + 1)
  })

  it('asks once when two gateway processes need the same token at the same moment', async () => {
    const gateways = await Promise.all([spawnGateway(), spawnGateway()])
    const clients: Client[] = []
    let gate: ReturnType<TestIdp['hold']> | undefined
    try {
      clients.push(...(await Promise.all(gateways.map((g) => agentClient(g.url, agentToken)))))
      const before = idp.tokenRequests()
      gate = idp.hold()
      const calls = clients.map((c) => c.callTool({ name: 'tickets.replicas', arguments: { subject: 'x' } }))
      // The first process's token request is held at the server; the second waits on the credential's lock.
      await until('one token request held and the other process waiting for the lock', async () => {
        const waiting = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`
        return gate!.held() === 1 && waiting[0].n >= 1
      })
      gate.release()
      const results = await Promise.all(calls)
      expect(results.map((r) => r.isError ?? false)).toEqual([false, false])
      expect(idp.tokenRequests()).toBe(before + 1)
      expect(new Set(restUpstream.seen.slice(-2)).size).toBe(1)
    } finally {
      gate?.release()
      await Promise.all(clients.map((c) => c.close().catch(() => {})))
      await Promise.all(gateways.map((g) => g.stop()))
    }
  }, 90_000)

  it('takes the token endpoint named directly, without metadata', async () => {
    const res = await restCall('tickets.direct')
    expect(res.status, res.text).toBe(200)
  })

  it('fails a call with the server unreachable named, and the Tool says so', async () => {
    const res = await restCall('tickets.down')
    expect(res.status).toBe(502)
    expect(res.json).toMatchObject({ type: 'https://toolroom.dev/problems/upstream-token-unavailable', title: 'No access token for the upstream' })
    expect(res.json.detail).toContain(`the authorization server ${deadIssuer}`)
    expect(res.json.detail).toContain('could not be reached')
    expect(res.json.data.authorizationServer).toMatchObject({ error: 'unreachable', server: deadIssuer })
    const stored = await prisma.toolCall.findFirstOrThrow({ where: { id: res.json.callId } })
    expect(stored).toMatchObject({ outcome: 'failed', errorCode: 'upstream_auth' })
    expect(await toolStatus('tickets.down')).toMatchObject({ phase: 'Failed', token: { status: 'False', reason: 'ServerUnreachable' } })
  })

  it("fails a call with the server's invalid_client when the client secret is wrong, and the Tool says so", async () => {
    const res = await restCall('tickets.wrong')
    expect(res.status).toBe(502)
    expect(res.json.detail).toContain('refused the token request: invalid_client')
    expect(res.json.data.authorizationServer).toMatchObject({ error: 'invalid_client', server: idp.issuer })
    expect(res.text).not.toContain('not-the-secret')
    const status = await toolStatus('tickets.wrong')
    expect(status).toMatchObject({ phase: 'Failed', token: { status: 'False', reason: 'TokenRefused' } })
    expect(status.token!.message).toContain('invalid_client')
    // Fixed Secret, one more try after the hold: the condition clears.
    await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: wrong-client, namespace: oa }
spec: { stringData: { secret: "${CLIENT_SECRET}" } }`)
    await until('a token with the fixed secret', async () => (await restCall('tickets.wrong')).status === 200)
    expect(await toolStatus('tickets.wrong')).toMatchObject({ phase: 'Ready', token: { status: 'True' } })
  })
})

describe('a LanguageTool with an OAuth credential', () => {
  it('is discovered with the token, and calls to its tools carry it through the bearer-auth middleware', async () => {
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'oa', name: 'guarded' } } })
    const run = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded' })
    const discovered = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    expect((discovered.toolSchemas as { name: string }[]).map((t) => t.name)).toEqual(['echo'])
    const token = mcpUpstream.seen.at(-1)!
    expect(await idp.verify(token)).toMatchObject({ resource: MCP_RESOURCE })

    const client = await agentClient(gateway.url, agentToken)
    try {
      const result = await client.callTool({ name: 'guarded.echo', arguments: { text: 'through oauth' } })
      expect(result.isError ?? false).toBe(false)
      expect(result.content).toEqual([{ type: 'text', text: 'through oauth' }])
      expect(mcpUpstream.seen.at(-1)).toBe(token)
    } finally {
      await client.close()
    }
  })

  it("fails its discovery with the server's error when the client is refused", async () => {
    await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: refused, namespace: oa }
spec:
  endpoint: "${mcpUpstream.url}/mcp"
  auth:
    type: oauth2
    oauth2: { grantType: client_credentials, issuer: "${idp.issuer}", clientId: nobody, clientSecretRef: { name: idp-client }, scopes: [tools.read] }`)
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'oa', name: 'refused' } } })
    const run = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(run.status).toBe('failed')
    expect(run.error).toContain('invalid_client')
    const failed = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    expect(failed).toMatchObject({ phase: 'Failed' })
    expect(failed.lastError).toContain(`the authorization server ${idp.issuer} refused the token request: invalid_client`)
    expect(failed.lastError).not.toContain(CLIENT_SECRET)
  })
})
