// The gateway beyond MCP: credentials (issue, list, revoke, refused after revocation), the REST call
// endpoint, ingest, retries only where a repeat is harmless, redaction (a secret never reaches the
// database), and hostile input on /mcp.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { prisma } from '@/lib/db'
import { startGatewayWorld } from '../support/gateway-fixtures'
import { call } from './helpers'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

const SECRET = 'sk-live-UNMISTAKABLE-7c1d2e3f4a5b'
const BODY_VALUE = 'my card number is 4111-1111-1111-1111'
const EMAIL_VALUE = 'hidden.person@example.org'
let rest: World['rest']
let gatewayUrl: string
let world: World
let tokens: World['tokens']

const restCall = (toolId: string, body: unknown, token = tokens.tokenA) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body,
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

async function mcpPost(body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${gatewayUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.tokenA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: body as unknown as BodyInit,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}

beforeAll(async () => {
  world = await startGatewayWorld(SECRET)
  ;({ rest, tokens, gatewayUrl } = world)
})

afterAll(async () => {
  await world?.stop()
})

describe('agent credentials', () => {
  it('are listed without their token, and a revoked one is refused by the gateway and the REST endpoint', async () => {
    const created = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${tokens.agentA}/credentials`, {
      method: 'POST',
      body: { name: 'short-lived' },
      params: { id: tokens.agentA },
    })
    expect(created.status).toBe(201)
    expect(created.json.token).toMatch(/^tra_/)
    const token = created.json.token as string
    const listed = await call(agentCredentialRoutes.listCredentials, `/api/v1/agents/${tokens.agentA}/credentials`, { params: { id: tokens.agentA } })
    expect(listed.json.items.map((c: { name: string }) => c.name)).toContain('short-lived')
    expect(listed.text).not.toContain(token)
    const stored = await prisma.agentCredential.findFirstOrThrow({ where: { name: 'short-lived' } })
    expect(JSON.stringify(stored)).not.toContain(token)

    expect((await mcpPost(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { authorization: `Bearer ${token}` })).status).toBe(200)
    const revoked = await call(agentCredentialRoutes.revokeCredential, `/api/v1/agents/${tokens.agentA}/credentials/${created.json.id}/revoke`, {
      method: 'POST',
      params: { id: tokens.agentA, credentialId: created.json.id },
    })
    expect(revoked.json.state).toBe('revoked')
    const refused = await mcpPost(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { authorization: `Bearer ${token}` })
    expect(refused.status).toBe(401)
    expect(refused.json.error.code).toBe(-32600)
    expect((await restCall('upstream.echo', { arguments: { text: 'x' } }, token)).status).toBe(401)
    const audit = await prisma.auditEvent.findMany({ where: { resourceId: tokens.agentA }, orderBy: { at: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['agent_credential.created', 'agent_credential.revoked']))
  })

  it('refuses people and API callers on agent routes, and agents on everything else', async () => {
    const noToken = await call(gatewayRoutes.callTool, '/api/v1/gateway/tools/upstream.echo/call', {
      method: 'POST',
      body: { arguments: {} },
      params: { toolId: 'upstream.echo' },
    })
    expect(noToken.status).toBe(401)
    const agentOnAdmin = await call(agentCredentialRoutes.listCredentials, `/api/v1/agents/${tokens.agentA}/credentials`, {
      params: { id: tokens.agentA },
      headers: { authorization: `Bearer ${tokens.tokenA}` },
    })
    // the people route ignores agent credentials: it authenticates people (the local operator until sign-in lands)
    expect(agentOnAdmin.text).not.toContain(tokens.tokenA)
  })
})

describe('REST call endpoint and ingest', () => {
  it('runs the same pipeline over REST, with problem+json for refusals', async () => {
    const ok = await restCall('upstream.echo', { arguments: { text: 'over rest' } })
    expect(ok.status).toBe(200)
    expect(ok.json.result.structuredContent).toEqual({ echo: 'over rest' })
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: ok.json.callId } })).toMatchObject({
      channel: 'rest',
      outcome: 'succeeded',
      toolKey: 'LanguageTool/gw/upstream/upstream.echo',
    })
    const bad = await restCall('tickets.create', { arguments: { subject: 1 } })
    expect(bad.status).toBe(422)
    expect(bad.contentType).toMatch(/problem\+json/)
    expect(bad.json.rpcCode).toBe(-32602)
    expect(bad.json.data.violations.length).toBeGreaterThan(0)
    const unknown = await restCall('nope.nothing', { arguments: {} })
    expect(unknown.status).toBe(404)
    const failing = await restCall('broken.lookup', { arguments: {} })
    expect(failing.status).toBe(502)
    expect(failing.json.data.status).toBe(400)
    // -32603 is the tool's failure or Toolroom's own: data.errorCode says which, and this one is the upstream's.
    expect(failing.json.rpcCode).toBe(-32603)
    expect(failing.json.data.errorCode).toBe('upstream_status')
  })

  it("ingests a batch all or nothing, skips re-sent records, and applies the tool's redaction", async () => {
    const id = crypto.randomUUID()
    const record = {
      id,
      toolId: 'tickets.create',
      outcome: 'succeeded',
      startedAt: new Date().toISOString(),
      latencyMs: 12,
      args: { subject: 's', body: BODY_VALUE },
    }
    const bad = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
      method: 'POST',
      body: { calls: [record, { ...record, id: crypto.randomUUID(), outcome: 'exploded' }] },
      headers: { authorization: `Bearer ${tokens.tokenA}` },
    })
    expect(bad.status).toBe(422)
    expect(bad.json.errors[0].field).toMatch(/calls\.1\.outcome|calls\[1\]\.outcome/)
    expect(await prisma.toolCall.count({ where: { id } })).toBe(0)
    const ok = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
      method: 'POST',
      body: { calls: [record] },
      headers: { authorization: `Bearer ${tokens.tokenA}` },
    })
    expect(ok.status).toBe(202)
    expect(ok.json).toEqual({ accepted: 1, duplicates: 0 })
    const again = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
      method: 'POST',
      body: { calls: [record] },
      headers: { authorization: `Bearer ${tokens.tokenA}` },
    })
    expect(again.json).toEqual({ accepted: 0, duplicates: 1 })
    const row = await prisma.toolCall.findFirstOrThrow({ where: { id } })
    expect(row).toMatchObject({ channel: 'ingest', agentName: 'agent-a', provenance: 'grant', toolKey: 'Tool/gw/tickets.create' })
    expect(row.args).toEqual({ subject: 's', body: '[REDACTED]' })
  })
})

describe('retries', () => {
  it('retries transient failures of read-only and idempotent tools, never of the others', async () => {
    const read = await restCall('flaky.read', { arguments: {} })
    expect(read.status).toBe(200)
    expect(rest.hits.get('/flaky-read')).toBe(3)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: read.json.callId } })).toMatchObject({ outcome: 'succeeded', attempts: 3 })
    const put = await restCall('flaky.put', { arguments: {} })
    expect(put.status).toBe(200)
    expect(rest.hits.get('/flaky-put')).toBe(3)
    const write = await restCall('flaky.write', { arguments: {} })
    expect(write.status).toBe(502)
    expect(rest.hits.get('/flaky-write')).toBe(1)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: write.json.callId } })).toMatchObject({
      outcome: 'failed',
      attempts: 1,
      errorCode: 'transient',
    })
  })
})

describe('redaction', () => {
  it('keeps the injected secret and redactFields values out of every table', async () => {
    const res = await restCall('tickets.create', { arguments: { subject: 'Printer on fire', body: BODY_VALUE, customer_email: EMAIL_VALUE } })
    expect(res.status).toBe(200)
    // the upstream got the real values and the secret
    const seen = rest.seen.find((s) => s.path === '/tickets')!
    expect(seen.authorization).toBe(`Bearer ${SECRET}`)
    expect((seen.body as { body: string }).body).toBe(BODY_VALUE)
    // and the agent got the real result
    expect(res.json.result.structuredContent.token).toMatch(/^result-token-/)
    const resultToken = res.json.result.structuredContent.token as string
    // a repeat with the same subject is answered from the (sealed) idempotency record
    const repeat = await restCall('tickets.create', { arguments: { subject: 'Printer on fire', body: BODY_VALUE, customer_email: EMAIL_VALUE } })
    expect(repeat.json.result).toEqual(res.json.result)
    // a failure that echoes arguments is scrubbed too
    await restCall('tickets.create', { arguments: { subject: 'x'.repeat(300), body: BODY_VALUE } })

    const row = await prisma.toolCall.findFirstOrThrow({ where: { id: res.json.callId } })
    expect(row.args).toEqual({ subject: 'Printer on fire', body: '[REDACTED]', customer_email: '[REDACTED]' })
    expect((row.result as { structuredContent: { token: string } }).structuredContent.token).toBe('[REDACTED]')

    const tables = await prisma.$queryRaw<Array<{ tablename: string }>>`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`
    let dump = ''
    for (const { tablename } of tables) {
      const rows = await prisma.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${tablename}"`)
      dump += JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v))
    }
    expect(dump).toContain('Printer on fire')
    for (const value of [SECRET, BODY_VALUE, EMAIL_VALUE, resultToken, Buffer.from(SECRET).toString('base64')]) expect(dump, value).not.toContain(value)
  })
})

describe('hostile input on /mcp', () => {
  it('answers malformed JSON with -32700 and non-JSON-RPC with -32600', async () => {
    const broken = await mcpPost('{"jsonrpc": "2.0", "id": 1, "method": ')
    expect(broken.status).toBe(400)
    expect(broken.json.error.code).toBe(-32700)
    for (const body of [
      '42',
      '"x"',
      '[]',
      '{"id": 1, "method": "tools/list"}',
      '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}',
      '{"jsonrpc": "2.0", "id": 1, "method": 7}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}',
    ]) {
      const res = await mcpPost(body)
      expect(res.json.error.code, body).toBe(-32600)
    }
  })

  it('answers unknown methods with -32601 and bad params with -32602', async () => {
    const unknown = await mcpPost(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/destroy', params: {} }))
    expect(unknown.json).toMatchObject({ id: 'a', error: { code: -32601 } })
    const badParams = await mcpPost(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } }))
    expect(badParams.json.error.code).toBe(-32602)
  })

  it('refuses huge bodies with 413 without reading them, and survives deep nesting', async () => {
    const huge = await mcpPost(Buffer.alloc(3 * 1024 * 1024, 'a'))
    expect(huge.status).toBe(413)
    const deepArgs = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    const deep = await mcpPost(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"upstream.echo","arguments":${deepArgs}}}`)
    // arguments the tool's schema refuses are a tool execution error the model can read (SEP-1303)
    expect(deep.json.result.isError).toBe(true)
    expect(deep.json.result.content[0].text).toMatch(/nest deeper/)
    const deepJson = await mcpPost('['.repeat(200_000) + ']'.repeat(200_000))
    // a batch of one malformed message: answered as JSON-RPC says, with an array holding its error
    expect([-32600, -32700]).toContain((Array.isArray(deepJson.json) ? deepJson.json[0] : deepJson.json).error.code)
    // still serving
    const ok = await mcpPost(
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'upstream.echo', arguments: { text: 'still here' } } }),
    )
    expect(ok.json.result.structuredContent).toEqual({ echo: 'still here' })
  })

  it('answers batches, notifications, GET and a missing credential as the protocol says', async () => {
    const batch = await mcpPost(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ]),
    )
    expect(batch.json).toHaveLength(2)
    expect(batch.json[1].error.code).toBe(-32601)
    expect((await mcpPost(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202)
    expect((await fetch(`${gatewayUrl}/mcp`)).status).toBe(405)
    expect((await mcpPost('{}', { authorization: 'Bearer tra_forged' })).status).toBe(401)
    expect((await mcpPost('{}', { authorization: '' })).status).toBe(401)
  })
})
