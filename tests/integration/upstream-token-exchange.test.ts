// Upstreams that see the person (docs/design/access.md#how-a-person-reaches-an-upstream): a
// LanguageTool with `grantType: token_exchange` is called, for the person an agent acts for, with that
// person's token exchanged (RFC 8693) at the upstream's authorization server. The organisation's IdP
// and the upstream's authorization server are one real oidc-provider (its token exchange added with
// its own grant type extension API); the upstream is an SDK MCP server behind the SDK's bearer-auth
// middleware that checks the token's audience and signature against that server's keys and answers
// whose token it was shown. A call for nobody, an authorization server that refuses, a wrong audience,
// a disabled person and a revoked tro_ token each fail, clearly, with no other credential instead.
import http from 'node:http'
import { createRequire } from 'node:module'
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { accessRoutes } from '@/lib/api/access-routes'
import { oauthRoutes } from '@/lib/api/oauth-routes'
import { explainRoutes } from '@/lib/api/explain-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { statsRoutes } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { forgetUpstreamTokens } from '@/lib/upstream-auth/get-upstream-token'
import { agentClient } from '../support/gateway-fixtures'
import { MemoryProvider, signInMcpClient } from '../support/oauth-browser'
import { listen, type Listening, listenOn } from '../support/listen'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'
import { startWebApp, type WebApp } from '../support/web-app'
import { sessionCookie } from './access-fixtures'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'
import { troToken } from '../support/token-exchange'

type ExpressApp = http.RequestListener & {
  use(path: string, handler: unknown): void
  post(path: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => unknown): void
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp

const GATEWAY_AUDIENCE = 'toolroom-gateway'
const CLIENT_SECRET = 'exchange-client-secret-UNMISTAKABLE-9d2e'
const MCP_RESOURCE = 'https://people-mcp.example.com'
const REST_RESOURCE = 'https://directory.example.com'

let app: WebApp
let idp: TestIdp
let upstream: Listening & { seen: string[] }
let restUpstream: Listening
let agentToken: string

const jane = { subject: 'jane-0042', claims: { name: 'Jane Doe', email: 'jane.doe@corp.test' } }

/**
 * The upstream: a person's token is a JWT the authorization server signed for MCP_RESOURCE; the
 * service's own (opaque, from the client credentials grant Toolroom lists tools with) is asked of it.
 */
async function startPeopleUpstream(): Promise<Listening & { seen: string[] }> {
  const seen: string[] = []
  const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`))
  const app = express()
  app.use(
    '/mcp',
    requireBearerAuth({
      verifier: {
        async verifyAccessToken(token: string) {
          seen.push(token)
          if (token.split('.').length === 3) {
            try {
              const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: MCP_RESOURCE })
              return { token, clientId: String(payload.client_id), scopes: [], expiresAt: payload.exp, extra: { sub: payload.sub } }
            } catch (e) {
              throw new InvalidTokenError(`not a token for ${MCP_RESOURCE}: ${(e as Error).message}`)
            }
          }
          const known = await idp.verify(token)
          if (!known) throw new InvalidTokenError('unknown or expired token')
          return { token, clientId: known.clientId, scopes: known.scopes, expiresAt: Math.floor(known.expiresAt / 1000), extra: { sub: null } }
        },
      },
    }),
  )
  app.post('/mcp', (req, res) =>
    answerStatelessMcp(
      () => {
        const server = new McpServer({ name: 'people-upstream', version: '1.0.0' })
        server.registerTool('whoami', { description: 'Whose token this call carried', annotations: { readOnlyHint: true } }, async (extra) => {
          const sub = (extra.authInfo?.extra?.sub as string | null | undefined) ?? null
          return { content: [{ type: 'text', text: JSON.stringify({ sub }) }], structuredContent: { sub } }
        })
        return server
      },
      req,
      res,
    ),
  )
  const running = await listenOn(http.createServer(app))
  return { ...running, seen }
}

/** A REST upstream that takes only a person's token the authorization server signed for REST_RESOURCE. */
async function startRestUpstream(): Promise<Listening> {
  const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`))
  return listen(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: REST_RESOURCE })
      send(200, { sub: payload.sub })
    } catch {
      send(401, { error: 'invalid_token' })
    }
  })
}

const languageTool = (name: string, resource: string) => `
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${name}, namespace: px }
spec:
  endpoint: "${upstream.url}/mcp"
  auth:
    type: oauth2
    oauth2: { grantType: token_exchange, issuer: "${idp.issuer}", clientId: toolroom, clientSecretRef: { name: idp-client }, resource: "${resource}" }`

const exchangeAtToolroom = (subjectToken: string) => troToken(app.url, { subjectToken, actorToken: agentToken })

const troFor = async (person = jane) => exchangeAtToolroom(await idp.personToken(person, { audience: GATEWAY_AUDIENCE }))

async function whoami(token: string, tool = 'people.whoami') {
  const client = await agentClient(app.url, token)
  try {
    return await client.callTool({ name: tool, arguments: {} })
  } finally {
    await client.close()
  }
}

async function discover(name: string) {
  const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'px', name } } })
  const run = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
  expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded' })
}

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "UpstreamToken", "ToolCall", "IdentityProvider", "DelegatedAccessToken", "SubjectTokenUse" CASCADE')
  idp = await startTestIdp([{ clientId: 'toolroom', clientSecret: CLIENT_SECRET }], [])
  upstream = await startPeopleUpstream()
  restUpstream = await startRestUpstream()
  app = await startWebApp()
  await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: corp-sso }
spec: { issuer: "${idp.issuer}", audiences: [${GATEWAY_AUDIENCE}], emailClaim: email }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: idp-client, namespace: px }
spec: { stringData: { secret: "${CLIENT_SECRET}" } }
${languageTool('people', MCP_RESOURCE)}
${languageTool('elsewhere', 'https://not-the-people-mcp.example.com')}
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: directory.whoami, namespace: px }
spec:
  type: rest
  description: Whose token a REST call carried
  endpoint:
    method: GET
    url: "${restUpstream.url}/whoami"
    auth:
      type: oauth2
      oauth2: { grantType: token_exchange, issuer: "${idp.issuer}", clientId: toolroom, clientSecretRef: { name: idp-client }, resource: "${REST_RESOURCE}", audience: directory }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: assistant, namespace: px }
spec:
  languageTools: [people, elsewhere]
  grants: [people.whoami, elsewhere.whoami, directory.whoami]
`)
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'px', name: 'assistant' } } })
  agentToken = await issueAgentCredential(agent.id)
  await discover('people')
  await discover('elsewhere')
}, 60_000)

afterAll(async () => {
  await closeMcpSessions()
  await app?.close()
  await upstream?.close()
  await restUpstream?.close()
  await idp?.close()
})

describe('grantType token_exchange', () => {
  it("calls the upstream with the person's own token, exchanged for its audience, and exchanges once while it lasts", async () => {
    const tro = await troFor()
    const before = idp.exchanges()
    const first = await whoami(tro)
    expect(first.isError ?? false, JSON.stringify(first)).toBe(false)
    expect(first.structuredContent).toEqual({ sub: 'jane-0042' })
    const sent = decodeJwt(upstream.seen.at(-1)!)
    expect(sent).toMatchObject({ sub: 'jane-0042', aud: MCP_RESOURCE, iss: idp.issuer, client_id: 'toolroom' })
    expect(idp.exchanges()).toBe(before + 1)

    expect((await whoami(tro)).structuredContent).toEqual({ sub: 'jane-0042' })
    expect(idp.exchanges(), 'the second call used the cached token').toBe(before + 1)
    // Another process (memory empty) opens the sealed row instead of exchanging again.
    forgetUpstreamTokens()
    expect((await whoami(tro)).structuredContent).toEqual({ sub: 'jane-0042' })
    expect(idp.exchanges()).toBe(before + 1)

    // Another person gets their own token, not Jane's.
    const bob = { subject: 'bob-0007', claims: { name: 'Bob Roe', email: 'bob.roe@corp.test' } }
    expect((await whoami(await troFor(bob))).structuredContent).toEqual({ sub: 'bob-0007' })
    expect(idp.exchanges()).toBe(before + 2)
  })

  it("never shows or stores in plain text the person's subject token nor the exchanged token", async () => {
    const subjectToken = await idp.personToken(jane, { audience: GATEWAY_AUDIENCE })
    const tro = await exchangeAtToolroom(subjectToken)
    forgetUpstreamTokens()
    await prisma.upstreamToken.deleteMany()
    await whoami(tro)
    const exchanged = upstream.seen.at(-1)!
    const calls = await call(statsRoutes.calls, '/api/v1/calls?limit=50')
    const rows = JSON.stringify(await prisma.delegatedAccessToken.findMany()) + JSON.stringify(await prisma.upstreamToken.findMany())
    for (const text of [calls.text, rows]) {
      expect(text).not.toContain(subjectToken)
      expect(text).not.toContain(exchanged)
    }
  })

  it('refuses a call made for nobody, naming why, and sends no other credential', async () => {
    const seen = upstream.seen.length
    await expect(whoami(agentToken)).rejects.toThrow(/made for nobody: the agent must act for a person/)
    expect(upstream.seen.length, 'the upstream was not called').toBe(seen)

    const rest = await call(gatewayRoutes.callTool, '/api/v1/gateway/tools/people.whoami/call', {
      method: 'POST',
      body: { arguments: {} },
      params: { toolId: 'people.whoami' },
      headers: { authorization: `Bearer ${agentToken}` },
    })
    expect(rest.status, rest.text).toBeGreaterThanOrEqual(400)
    expect(rest.text).toMatch(/made for nobody/)
    const stored = await prisma.toolCall.findFirstOrThrow({ where: { id: rest.json.callId } })
    expect(stored).toMatchObject({ outcome: 'failed', errorCode: 'upstream_auth' })
  })

  it('refuses a call for a person who came without a subject token (consent as a Toolroom user)', async () => {
    const cookie = await sessionCookie('operator', 'exchange')
    const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'Laptop client', agent: 'px/assistant', kind: 'authorization_code', redirectUris: ['http://127.0.0.1:53682/callback'] },
    })
    expect(created.status, created.text).toBe(201)
    const provider = new MemoryProvider({ client_id: created.json.clientId })
    const connect = async () => {
      const client = new Client({ name: 'consented', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider }))
      return client
    }
    await signInMcpClient(app.url, provider, cookie, connect)
    const client = await connect()
    const seen = upstream.seen.length
    try {
      await expect(client.callTool({ name: 'people.whoami', arguments: {} })).rejects.toThrow(/came without a token from a trusted identity provider/)
    } finally {
      await client.close()
    }
    expect(upstream.seen.length, 'the upstream was not called').toBe(seen)
  })

  it("fails with the authorization server's error, and the LanguageTool's call says so, when it refuses the exchange", async () => {
    const tro = await troFor({ subject: 'carol-0003', claims: { name: 'Carol Poe', email: 'carol@corp.test' } })
    idp.refuseExchanges('invalid_grant')
    try {
      await expect(whoami(tro)).rejects.toThrow(/refused the token request: invalid_grant/)
    } finally {
      idp.refuseExchanges(null)
    }
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'people.whoami' }, orderBy: { startedAt: 'desc' } })
    expect(row).toMatchObject({ outcome: 'failed', errorCode: 'upstream_auth', onBehalfOfSubject: 'carol-0003' })
  })

  it("a REST tool sends the person's token too, and an authorization server's refusal is its TokenIssued condition", async () => {
    const tokenIssued = async () => {
      const res = await call(resourceRoutes('Tool').get, '/api/v1/tools/directory.whoami?namespace=px', { params: { id: 'directory.whoami' } })
      expect(res.status, res.text).toBe(200)
      return (res.json.status.conditions as { type: string; status: string; message: string }[]).find((c) => c.type === 'TokenIssued')
    }
    const tro = await troFor()
    expect((await whoami(tro, 'directory.whoami')).structuredContent).toEqual({ sub: 'jane-0042' })
    await until('TokenIssued', async () => ((await tokenIssued())?.status === 'True' ? true : undefined))

    const erin = await troFor({ subject: 'erin-0005', claims: { name: 'Erin Fox', email: 'erin@corp.test' } })
    idp.refuseExchanges('invalid_grant')
    try {
      await expect(whoami(erin, 'directory.whoami')).rejects.toThrow(/refused the token request: invalid_grant/)
    } finally {
      idp.refuseExchanges(null)
    }
    const refused = await until('TokenIssued False', async () => {
      const condition = await tokenIssued()
      return condition?.status === 'False' ? condition : undefined
    })
    expect(refused.message).toMatch(/invalid_grant/)
  })

  it('is refused by the upstream when the token is exchanged for another audience', async () => {
    const tro = await troFor()
    const result = await whoami(tro, 'elsewhere.whoami').then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    )
    expect(result).toMatch(/401/)
    expect(decodeJwt(upstream.seen.at(-1)!)).toMatchObject({ sub: 'jane-0042', aud: 'https://not-the-people-mcp.example.com' })
  })

  it('stops exchanging, and using the cached token, once the person is disabled', async () => {
    const dave = { subject: 'dave-0011', claims: { name: 'Dave Lo', email: 'dave.lo@corp.test' } }
    const user = await prisma.user.create({ data: { name: 'Dave Lo', email: 'dave.lo@corp.test', role: 'viewer' } })
    const tro = await troFor(dave)
    expect((await whoami(tro)).structuredContent).toEqual({ sub: 'dave-0011' })
    const seen = upstream.seen.length
    // Disabled elsewhere (another replica's API): this gateway's verdict cache still admits the tro_
    // token for TOOLROOM_AGENT_AUTH_CACHE_MS, and the upstream credential refuses it all the same.
    await prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } })
    await expect(whoami(tro)).rejects.toThrow(/Dave Lo is disabled: no token is exchanged for them/)
    expect(upstream.seen.length, 'no token of theirs reached the upstream').toBe(seen)
    // Disabled here: the gateway itself refuses the token.
    await prisma.user.update({ where: { id: user.id }, data: { disabledAt: null } })
    const disabled = await call(accessRoutes.changeUser, `/api/v1/users/${user.id}`, { method: 'PATCH', params: { id: user.id }, body: { disabled: true } })
    expect(disabled.status, disabled.text).toBe(200)
    await expect(whoami(tro)).rejects.toThrow()
    expect(upstream.seen.length).toBe(seen)
  })

  it("names the person's exchanged token as the upstream credential in the explainer's identity chain", async () => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'px', name: 'assistant' } } })
    const explained = await call(explainRoutes.explain, `/api/v1/agents/${agent.id}/explain`, {
      method: 'POST',
      params: { id: agent.id },
      body: { tool: 'people.whoami', arguments: {}, person: { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' } },
    })
    expect(explained.status, explained.text).toBe(200)
    expect(explained.json.identity.chain).toBe(
      `Jane Doe (jane-0042 at ${idp.issuer}) → agent px/assistant → people.whoami → the person's own token, exchanged by client toolroom at ${idp.issuer} (RFC 8693; none for nobody)`,
    )
  })

  it('revokes a tro_ token (RFC 7009): it stops working, and its subject token is gone', async () => {
    const tro = await troFor()
    expect((await whoami(tro)).structuredContent).toEqual({ sub: 'jane-0042' })
    const stored = await prisma.delegatedAccessToken.count()
    const revoked = await fetch(`${app.url}/api/auth/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tro, token_type_hint: 'access_token' }),
    })
    expect(revoked.status, await revoked.text()).toBe(200)
    expect(await prisma.delegatedAccessToken.count()).toBe(stored - 1)
    await expect(whoami(tro)).rejects.toThrow()
    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'token.revoked' }, orderBy: { at: 'desc' } })
    expect(audited).toMatchObject({ actorName: 'px/assistant', detail: { onBehalfOf: { subject: 'jane-0042' } } })
  })
})
