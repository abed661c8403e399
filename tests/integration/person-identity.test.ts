// People, and the agents that act for them (docs/design/access.md#on-whose-behalf): an agent with a
// service credential exchanges a person's token from the organisation's IdP (a real oidc-provider,
// its own keys and JWKS) for a `tro_…` token at Toolroom's token endpoint (RFC 8693), and its calls
// through the gateway are recorded, listed, queued for approval and audited on that person's behalf;
// an MCP client with a person's consent acts for that person. Every refusal the exchange has is here.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessRoutes } from '@/lib/api/access-routes'
import { approvalRoutes } from '@/lib/api/approval-routes'
import { explainRoutes } from '@/lib/api/explain-routes'
import { oauthRoutes } from '@/lib/api/oauth-routes'
import { statsRoutes } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { agentClient, setUpGatewayRegistry, startRestUpstream, startUpstreamMcp } from '../support/gateway-fixtures'
import { MemoryProvider, signInMcpClient } from '../support/oauth-browser'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { startWebApp, type WebApp } from '../support/web-app'
import { ensureUser, sessionCookie, tokenFor } from './access-fixtures'
import { applyManifest, call, yaml } from './helpers'

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token'
const JWT = 'urn:ietf:params:oauth:token-type:jwt'
const AUDIENCE = 'toolroom-gateway'

let app: WebApp
let idp: TestIdp
let mcp: Awaited<ReturnType<typeof startUpstreamMcp>>
let rest: Awaited<ReturnType<typeof startRestUpstream>>
let tokens: Awaited<ReturnType<typeof setUpGatewayRegistry>>

const jane = { subject: 'jane-0042', claims: { name: 'Jane Doe', email: 'jane.doe@corp.test' } }

function identityProvider(name: string, issuer: string, extra = '') {
  return yaml`
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: ${name} }
spec:
  issuer: "${issuer}"
  audiences: [${AUDIENCE}]
  emailClaim: email
${extra}`
}

async function exchange(fields: Record<string, string | undefined>) {
  const body = new URLSearchParams()
  const all: Record<string, string | undefined> = {
    grant_type: EXCHANGE,
    subject_token_type: JWT,
    actor_token: tokens.tokenA,
    actor_token_type: ACCESS_TOKEN,
    resource: `${app.url}/mcp`,
    ...fields,
  }
  for (const [k, v] of Object.entries(all)) if (v !== undefined) body.set(k, v)
  const res = await fetch(`${app.url}/api/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  return { status: res.status, json: (await res.json()) as Record<string, string & number> }
}

const personToken = (person = jane, opts: { audience?: string; expiredSecondsAgo?: number } = {}) =>
  idp.personToken(person, { audience: opts.audience ?? AUDIENCE, expiredSecondsAgo: opts.expiredSecondsAgo })

async function callEcho(token: string, text: string) {
  const client = await agentClient(app.url, token)
  try {
    return await client.callTool({ name: 'upstream.echo', arguments: { text } })
  } finally {
    await client.close()
  }
}

beforeAll(async () => {
  mcp = await startUpstreamMcp()
  rest = await startRestUpstream()
  tokens = await setUpGatewayRegistry(mcp.url, rest.url, 'sk-person-5c4b3a')
  await prisma.$executeRawUnsafe('TRUNCATE "IdentityProvider", "DelegatedAccessToken", "SubjectTokenUse", "ApprovalRequest" CASCADE')
  idp = await startTestIdp([], [])
  app = await startWebApp()
  // jwksUri left out: discovered from the issuer, as operators will mostly configure it.
  await applyManifest(identityProvider('corp-sso', idp.issuer))
}, 60_000)

afterAll(async () => {
  await app?.close()
  await idp?.close()
  await mcp?.close()
  await rest?.close()
})

describe('token exchange: an agent acting for a person', () => {
  it('is advertised in the authorization server metadata', async () => {
    const metadata = await (await fetch(`${app.url}/.well-known/oauth-authorization-server/api/auth`)).json()
    expect(metadata.grant_types_supported).toContain(EXCHANGE)
  })

  it('issues a short-lived tro_ token for agent-a acting for Jane, and her calls say so everywhere', async () => {
    const answer = await exchange({ subject_token: await personToken() })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    expect(answer.json).toMatchObject({ issued_token_type: ACCESS_TOKEN, token_type: 'Bearer', scope: 'mcp' })
    expect(answer.json.access_token).toMatch(/^tro_/)
    expect(answer.json.expires_in).toBeGreaterThan(0)
    expect(answer.json.expires_in).toBeLessThanOrEqual(600)

    expect((await callEcho(answer.json.access_token, 'for jane')).structuredContent).toEqual({ echo: 'for jane' })
    const onBehalfOf = { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' }
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'upstream.echo' }, orderBy: { startedAt: 'desc' } })
    expect(row).toMatchObject({
      agentName: 'agent-a',
      outcome: 'succeeded',
      onBehalfOfIssuer: idp.issuer,
      onBehalfOfSubject: 'jane-0042',
      onBehalfOfDisplayName: 'Jane Doe',
    })

    const listed = await call(statsRoutes.calls, '/api/v1/calls?agent=gw/agent-a&tool=upstream.echo')
    expect(listed.status).toBe(200)
    expect(listed.json.items[0]).toMatchObject({ id: row.id, onBehalfOf })
    expect(listed.json.items[0].onBehalfOfIssuer).toBeUndefined()
    const one = await call(statsRoutes.call, `/api/v1/calls/${row.id}`, { params: { id: row.id } })
    expect(one.json.onBehalfOf).toEqual(onBehalfOf)

    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'token.exchanged' }, orderBy: { at: 'desc' } })
    expect(audited).toMatchObject({ actorKind: 'agent', actorName: 'gw/agent-a', resource: 'agent-a' })
    expect(audited.detail).toMatchObject({ onBehalfOf, identityProvider: 'default/corp-sso' })
    expect(JSON.stringify(audited.detail)).not.toContain(answer.json.access_token)
  })

  it('holds a call for approval as "agent-a for Jane Doe"', async () => {
    const answer = await exchange({ subject_token: await personToken() })
    const client = await agentClient(app.url, answer.json.access_token)
    const held = await client.callTool({ name: 'pay.charge', arguments: { amount: 5 } })
    await client.close()
    expect(JSON.stringify(held)).toMatch(/approval/)
    const queue = await call(approvalRoutes.list, '/api/v1/approvals?status=pending')
    const mine = queue.json.items.find((a: { tool: { id: string } }) => a.tool.id === 'pay.charge')
    expect(mine).toMatchObject({ agent: { name: 'agent-a' }, onBehalfOf: { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' } })
    const record = await prisma.toolCall.findFirstOrThrow({ where: { id: mine.callId } })
    expect(record.onBehalfOfDisplayName).toBe('Jane Doe')
    const approved = await call(approvalRoutes.approve, `/api/v1/approvals/${mine.id}/approve`, { method: 'POST', params: { id: mine.id }, body: {} })
    expect(approved.status, approved.text).toBe(200)
    expect(approved.json.onBehalfOf.displayName).toBe('Jane Doe')
    const decision = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'approval.approved', resourceId: mine.callId } })
    expect(decision.detail).toMatchObject({ agent: 'agent-a', onBehalfOf: { subject: 'jane-0042', displayName: 'Jane Doe' } })
  })

  it('refuses a subject token for another audience', async () => {
    const answer = await exchange({ subject_token: await personToken(jane, { audience: 'some-other-api' }) })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe('invalid_request')
    expect(answer.json.error_description).toMatch(/not for this audience.*toolroom-gateway/)
  })

  it('refuses an expired subject token', async () => {
    const answer = await exchange({ subject_token: await personToken(jane, { expiredSecondsAgo: 60 }) })
    expect(answer.status).toBe(400)
    expect(answer.json).toMatchObject({ error: 'invalid_request', error_description: 'subject_token has expired' })
  })

  it('refuses a token from an issuer that is no trusted IdentityProvider', async () => {
    const stranger = await startTestIdp([], [])
    try {
      const answer = await exchange({ subject_token: await stranger.personToken(jane, { audience: AUDIENCE }) })
      expect(answer.status).toBe(400)
      expect(answer.json.error).toBe('invalid_request')
      expect(answer.json.error_description).toContain(`${stranger.issuer}" is no trusted IdentityProvider`)
    } finally {
      await stranger.close()
    }
  })

  it('refuses a token whose signature does not verify (claims changed after signing)', async () => {
    const [header, payload, signature] = (await personToken()).split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'ceo-0001', name: 'The CEO' })).toString('base64url')
    const answer = await exchange({ subject_token: `${header}.${forged}.${signature}` })
    expect(answer.status).toBe(400)
    expect(answer.json.error_description).toMatch(/signature does not verify/)
  })

  it('refuses a subject token exchanged before (replay), and one that is not a JWT', async () => {
    const token = await personToken()
    expect((await exchange({ subject_token: token })).status).toBe(200)
    const again = await exchange({ subject_token: token })
    expect(again.status).toBe(400)
    expect(again.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/already exchanged/) })
    // By another agent too: the person's token is spent, whoever presents it.
    expect((await exchange({ subject_token: token, actor_token: tokens.tokenB })).json.error_description).toMatch(/already exchanged/)
    expect((await exchange({ subject_token: 'not-a-jwt' })).json.error_description).toMatch(/not a JWT/)
  })

  it('refuses an actor token that is no agent credential', async () => {
    const { token: apiToken } = await tokenFor(await sessionCookie('admin', 'person'), ['admin'])
    for (const actor of [apiToken, 'tra_made-up', 'anything']) {
      const answer = await exchange({ subject_token: await personToken(), actor_token: actor })
      expect(answer.status, actor).toBe(400)
      expect(answer.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/actor_token is not a valid agent credential/) })
    }
    expect((await exchange({ subject_token: await personToken(), actor_token: undefined })).json.error_description).toMatch(/actor_token is required/)
  })

  it('refuses a resource that is not this gateway (invalid_target)', async () => {
    for (const resource of ['https://elsewhere.example/mcp', `${app.url}/api/v1`, 'not a url']) {
      const answer = await exchange({ subject_token: await personToken(), resource })
      expect(answer.status, resource).toBe(400)
      expect(answer.json.error, resource).toBe('invalid_target')
    }
  })

  it('refuses to act for a disabled person, and their exchanged tokens stop working at once', async () => {
    const bob = { subject: 'bob-0007', claims: { name: 'Bob Roe', email: 'bob.roe@corp.test' } }
    const user = await prisma.user.create({ data: { name: 'Bob Roe', email: 'Bob.Roe@corp.test', role: 'viewer' } })
    const before = await exchange({ subject_token: await personToken(bob) })
    expect(before.status).toBe(200)
    expect((await callEcho(before.json.access_token, 'bob')).structuredContent).toEqual({ echo: 'bob' })

    const disabled = await call(accessRoutes.changeUser, `/api/v1/users/${user.id}`, { method: 'PATCH', params: { id: user.id }, body: { disabled: true } })
    expect(disabled.status, disabled.text).toBe(200)
    await expect(callEcho(before.json.access_token, 'bob again')).rejects.toThrow(/send an agent credential/)
    const after = await exchange({ subject_token: await personToken(bob) })
    expect(after.status).toBe(400)
    expect(after.json.error_description).toBe('Bob Roe is disabled in Toolroom: no agent may act for them')
  })

  it('answers temporarily_unavailable, naming the IdP, when the IdP cannot be reached', async () => {
    const down = await startTestIdp([], [])
    const token = await down.personToken(jane, { audience: AUDIENCE })
    await applyManifest(identityProvider('down-sso', down.issuer, `  jwksUri: "${down.issuer}/jwks"`))
    await down.close()
    const answer = await exchange({ subject_token: token })
    expect(answer.status).toBe(503)
    expect(answer.json.error).toBe('temporarily_unavailable')
    expect(answer.json.error_description).toMatch(/IdentityProvider default\/down-sso could not be reached/)
  })

  it('lets only admins change IdentityProviders', async () => {
    const { token } = await tokenFor(await sessionCookie('operator', 'person'), ['write'])
    const { applyRoute } = await import('@/lib/api/registry-routes')
    const refused = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: identityProvider('rogue', 'https://rogue.example'), as: { token } })
    expect(refused.status).toBe(403)
    expect(refused.json.errors[0]).toMatchObject({ kind: 'IdentityProvider', rule: 'admin-only-kind' })
  })
})

describe('the explainer', () => {
  it('shows the identity chain, person → agent → tool → upstream credential, as one line', async () => {
    const explain = (body: object) =>
      call(explainRoutes.explain, `/api/v1/agents/${tokens.agentA}/explain`, { method: 'POST', params: { id: tokens.agentA }, body })
    const forJane = await explain({
      tool: 'tickets.create',
      arguments: { subject: 's', body: 'b' },
      person: { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' },
    })
    expect(forJane.status, forJane.text).toBe(200)
    expect(forJane.json.identity).toEqual({
      onBehalfOf: { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' },
      chain: `Jane Doe (jane-0042 at ${idp.issuer}) → agent gw/agent-a → tickets.create → bearer from Secret gw/rest-token (a service credential)`,
    })
    const alone = await explain({ tool: 'upstream.echo', arguments: { text: 'x' } })
    expect(alone.json.identity).toEqual({ onBehalfOf: null, chain: 'nobody (the agent acts on its own) → agent gw/agent-a → upstream.echo → no credential' })
  })
})

describe("an MCP client with a person's consent", () => {
  it("acts for the person who consented, until that person's account is disabled", async () => {
    const operator = await ensureUser('operator', 'consent')
    const cookie = await sessionCookie('operator', 'consent')
    const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
      method: 'POST',
      body: { name: 'Laptop client', agent: 'gw/agent-a', kind: 'authorization_code', redirectUris: ['http://127.0.0.1:53682/callback'] },
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
    await client.callTool({ name: 'upstream.echo', arguments: { text: 'consented' } })
    await client.close()
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'upstream.echo' }, orderBy: { startedAt: 'desc' } })
    expect(row).toMatchObject({ onBehalfOfIssuer: `${app.url}/api/auth`, onBehalfOfSubject: operator.id, onBehalfOfDisplayName: expect.any(String) })

    await call(accessRoutes.changeUser, `/api/v1/users/${operator.id}`, { method: 'PATCH', params: { id: operator.id }, body: { disabled: true } })
    const bearer = provider.tokens()!.access_token
    const refused = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(refused.status).toBe(401)
  })
})
