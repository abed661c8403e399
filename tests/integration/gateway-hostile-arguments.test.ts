// Arguments written to hurt: URL templates that try to leave their path (with the tool's credential),
// schema patterns that would backtrack for minutes, and text PostgreSQL cannot store. Real gateway,
// real upstream HTTP servers, real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { startGatewayWorld } from '../support/gateway-fixtures'
import { watchPatternSearches } from '../support/pattern-engines'
import { applyManifest, call } from './helpers'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

const SECRET = 'sk-live-HOSTILE-ARGS-9f8e7d6c'
let world: World
let token: string

const restCall = (toolId: string, body: unknown) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body,
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

async function mcpCall(name: string, args: unknown, id: number | string = 1, meta?: Record<string, unknown>) {
  const res = await fetch(`${world.gatewayUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } }),
  })
  return { status: res.status, json: await res.json() }
}

function hostileManifest(restUrl: string) {
  return `
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: users.profile, namespace: gw }
spec:
  type: rest
  description: A user's profile
  endpoint: { method: GET, url: "${restUrl}/api/users/{id}/profile", auth: { type: bearer, secretRef: { name: rest-token } } }
  inputSchema: { type: object, properties: { id: { type: string } } }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: names.check, namespace: gw }
spec:
  type: rest
  description: Checks a name against a pattern that backtracks exponentially in a JavaScript RegExp
  endpoint: { method: GET, url: "${restUrl}/names" }
  inputSchema: { type: object, properties: { name: { type: string, pattern: "^(a+)+$" } } }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-hostile, namespace: gw }
spec:
  grants: [users.profile, names.check, tickets.create]
`
}

beforeAll(async () => {
  world = await startGatewayWorld(SECRET)
  await applyManifest(hostileManifest(world.rest.url))
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'agent-hostile' } } })
  const issued = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${agent.id}/credentials`, {
    method: 'POST',
    body: { name: 'hostile' },
    params: { id: agent.id },
  })
  token = issued.json.token
})

afterAll(async () => {
  await world?.stop()
})

describe('schema patterns', () => {
  it('are searched by RE2 in the gateway: the ReDoS case is refused at once, and the gateway answers others meanwhile', async () => {
    // warm: the agent's tools resolved, the schema compiled; and the pattern is searched by RE2, never by
    // the backtracking RegExp (which would take minutes on the input below, blocking every other call)
    const warm = watchPatternSearches()
    try {
      await mcpCall('names.check', { name: 'aaa' }, 'warm')
      expect(warm.searchedWith('^(a+)+$')).toEqual(['RE2'])
    } finally {
      warm.stop()
    }
    await mcpCall('users.profile', { id: 'warm' }, 'warm')
    const watch = watchPatternSearches()
    try {
      const [evil, other] = await Promise.all([
        mcpCall('names.check', { name: `${'a'.repeat(34)}!` }, 'evil'),
        mcpCall('users.profile', { id: 'bob' }, 'other'),
      ])
      expect(watch.searchedWith('^(a+)+$')).toEqual(['RE2'])
      expect(evil.json.result).toMatchObject({
        isError: true,
        structuredContent: { error: 'invalid_arguments', violations: [{ path: '/name', rule: 'pattern' }] },
      })
      expect(other.json.result.structuredContent).toEqual({ ok: true, path: '/api/users/bob/profile' })
    } finally {
      watch.stop()
    }
    expect(await prisma.toolCall.count({ where: { toolId: 'names.check', outcome: 'invalid_arguments' } })).toBe(1)
    expect(await prisma.toolCall.count({ where: { toolId: 'names.check', outcome: 'succeeded' } })).toBe(1)
  })

  it('that need a backtracking engine are refused at apply, naming the field', async () => {
    const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: names.backref, namespace: gw }
spec:
  type: rest
  description: Backreference
  endpoint: { method: GET, url: "${world.rest.url}/names" }
  inputSchema: { type: object, properties: { name: { type: string, pattern: "^(a+)\\\\1$" } } }
`
    const refused = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest })
    expect(refused.status, refused.text).toBe(422)
    expect(refused.text).toMatch(/inputSchema/)
    expect(refused.text).toMatch(/properties\/name\/pattern: pattern .* cannot run in linear time/)
    expect(await prisma.tool.count({ where: { name: 'names.backref' } })).toBe(0)
  })
})

describe('URL templates', () => {
  it('keep every argument inside its path segment, so the credential never reaches another path', async () => {
    const seenBefore = world.rest.seen.length
    const hostile = ['..', '.', '../../admin', '%2e%2e', '.%2e', '..%2fadmin', 'a/b', '%2f', 'x?admin=1', 'x#frag', '..\\admin']
    for (const id of hostile) await restCall('users.profile', { arguments: { id } })
    await mcpCall('users.profile', { id: '..' })
    const seen = world.rest.seen.slice(seenBefore)
    // every request that went out stayed under /api/users/<one segment>/profile, with the credential
    for (const s of seen) {
      expect(s.path).toMatch(/^\/api\/users\/[^/]+\/profile$/)
      expect(s.authorization).toBe(`Bearer ${SECRET}`)
    }
    expect(seen.map((s) => decodeURIComponent(s.path.split('/')[3]))).toEqual([
      '../../admin',
      '%2e%2e',
      '.%2e',
      '..%2fadmin',
      'a/b',
      '%2f',
      'x?admin=1',
      'x#frag',
      '..\\admin',
    ])
    expect(seen.some((s) => s.path === '/api/profile' || s.path.includes('/admin'))).toBe(false)
  })

  it('refuses "." and ".." as a whole segment with -32602, and records the call', async () => {
    const refused = await restCall('users.profile', { arguments: { id: '..' } })
    expect(refused.status).toBe(422)
    expect(refused.json.rpcCode).toBe(-32602)
    expect(refused.json.detail).toMatch(/"id" fills a path segment/)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: refused.json.callId } })).toMatchObject({
      toolId: 'users.profile',
      errorCode: 'url_template',
    })
    const overMcp = await mcpCall('users.profile', { id: '.' })
    expect(overMcp.json.error, JSON.stringify(overMcp.json)).toMatchObject({ code: -32602, message: expect.stringMatching(/"id" fills a path segment/) })
    const ok = await restCall('users.profile', { arguments: { id: 'alice' } })
    expect(ok.status).toBe(200)
    expect(ok.json.result.structuredContent).toEqual({ ok: true, path: '/api/users/alice/profile' })
  })

  it('are refused at apply when a placeholder stands in the host', async () => {
    const manifest = hostileManifest(world.rest.url)
      .replace(`${world.rest.url}/api/users/{id}/profile`, 'https://{tenant}.example.org/api')
      .replace('users.profile', 'users.tenant')
    const refused = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest.split('---')[0] })
    expect(refused.status).toBe(422)
    expect(refused.text).toMatch(/endpoint\.url/)
    expect(refused.text).toMatch(/not in the scheme, host or port/)
  })
})

describe('text PostgreSQL cannot store', () => {
  const ingest = (calls: unknown[]) =>
    call(gatewayRoutes.ingest, '/api/v1/calls/ingest', { method: 'POST', body: { calls }, headers: { authorization: `Bearer ${token}` } })

  it('in call arguments reaches the upstream as sent, and the call is recorded in a safe form', async () => {
    const answer = await mcpCall('users.profile', { id: 'nul\u0000here', note: 'lone \ud800 surrogate', ['key\u0000']: 1 }, 'nul')
    expect(answer.json.result?.structuredContent, JSON.stringify(answer.json)).toEqual({ ok: true, path: '/api/users/nul%00here/profile' })
    const rows = await prisma.toolCall.findMany({ where: { toolId: 'users.profile', outcome: 'succeeded', args: { path: ['id'], string_starts_with: 'nul' } } })
    expect(rows).toHaveLength(1)
    expect(rows[0].args).toEqual({ id: 'nul\u2400here', note: 'lone \ufffd surrogate', 'key\u2400': 1 })

    const overRest = await restCall('users.profile', { arguments: { id: 'rest\u0000nul' } })
    expect(overRest.status, overRest.text).toBe(200)
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: overRest.json.callId } })).args).toEqual({ id: 'rest\u2400nul' })
  })

  it('in a tool name or an idempotency key is refused (-32602 / 422) and still recorded', async () => {
    const before = await prisma.toolCall.count()
    const unknown = await mcpCall('no\u0000such.tool', {}, 'unknown')
    expect(unknown.json.error, JSON.stringify(unknown.json)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/no\u0000such\.tool|unknown tool|not found/i),
    })
    const key = await mcpCall('users.profile', { id: 'k' }, 'key', { idempotencyKey: 'key\u0000with-nul' })
    expect(key.json.error?.code, JSON.stringify(key.json)).toBe(-32602)
    expect(key.json.error.message).toMatch(/idempotency key must not contain NUL/)
    expect(await prisma.toolCall.count()).toBe(before + 2)
    expect(await prisma.toolCall.findFirst({ where: { toolId: 'no\u2400such.tool' } })).not.toBeNull()
    expect(await prisma.toolCall.findFirst({ where: { toolId: 'users.profile', errorCode: 'idempotency_key' } })).not.toBeNull()

    const overRest = await restCall('users.profile', { arguments: { id: 'k' }, idempotencyKey: 'k\u0000' })
    expect(overRest.status).toBe(422)
    expect(overRest.json.errors).toEqual([expect.objectContaining({ field: 'idempotencyKey', rule: 'storable-text' })])
    const toolId = 'users.\u0000profile'
    const badId = await call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${encodeURIComponent(toolId)}/call`, {
      method: 'POST',
      body: { arguments: {} },
      params: { toolId },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(badId.status).toBe(422)
  })

  it('in ingest: refused in names and messages (naming the record), kept safe in args and results', async () => {
    const startedAt = new Date().toISOString()
    const refused = await ingest([{ toolId: 'users.profile', outcome: 'failed', startedAt, errorMessage: 'boom\u0000' }])
    expect(refused.status).toBe(422)
    expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'calls[0].errorMessage', rule: 'storable-text' })])
    const id = crypto.randomUUID()
    const ok = await ingest([{ id, toolId: 'users.profile', outcome: 'succeeded', startedAt, args: { q: 'a\u0000b' }, result: { text: '\udc00' } }])
    expect(ok.status, ok.text).toBe(202)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id } })).toMatchObject({ args: { q: 'a\u2400b' }, result: { text: '\ufffd' } })
  })
})

describe('ingest', () => {
  const ingest = (calls: unknown[]) =>
    call(gatewayRoutes.ingest, '/api/v1/calls/ingest', { method: 'POST', body: { calls }, headers: { authorization: `Bearer ${token}` } })

  it("records only the caller's own tools, within the retention window, naming each refused record", async () => {
    const now = Date.now()
    const before = await prisma.toolCall.count({ where: { channel: 'ingest' } })
    const refused = await ingest([
      { toolId: 'users.profile', outcome: 'succeeded', startedAt: new Date(now).toISOString() },
      { toolId: 'upstream.echo', outcome: 'succeeded', startedAt: new Date(now).toISOString() },
      { toolId: 'finance.payments.refund', outcome: 'succeeded', startedAt: new Date(now).toISOString() },
      { toolId: 'users.profile', outcome: 'succeeded', startedAt: '0001-01-01T00:00:00Z' },
      { toolId: 'users.profile', outcome: 'succeeded', startedAt: new Date(now + 3_600_000).toISOString() },
      { toolId: 'users.profile', outcome: 'succeeded', startedAt: new Date(now).toISOString(), finishedAt: new Date(now - 1000).toISOString() },
    ])
    expect(refused.status, refused.text).toBe(422)
    expect(refused.json.errors.map((e: { field: string; rule: string }) => `${e.field} ${e.rule}`)).toEqual([
      'calls[1].toolId effective-set',
      'calls[2].toolId effective-set',
      'calls[3].startedAt retention-window',
      'calls[4].startedAt not-future',
      'calls[5].finishedAt after-start',
    ])
    expect(await prisma.toolCall.count({ where: { channel: 'ingest' } })).toBe(before)
    const ok = await ingest([{ toolId: 'names.check', outcome: 'succeeded', startedAt: new Date(now - 6 * 86_400_000).toISOString() }])
    expect(ok.status, ok.text).toBe(202)
  })
})

describe('idempotency keys across agents', () => {
  const asAgent = (agentToken: string, body: unknown) =>
    call(gatewayRoutes.callTool, '/api/v1/gateway/tools/tickets.create/call', {
      method: 'POST',
      body,
      params: { toolId: 'tickets.create' },
      headers: { authorization: `Bearer ${agentToken}` },
    })

  it("a key rendered from the tool's template is the tool's: two agents filing the same subject get one ticket", async () => {
    const hits = () => world.rest.hits.get('/tickets') ?? 0
    const before = hits()
    const subject = `Printer on fire ${crypto.randomUUID()}`
    const first = await asAgent(world.tokens.tokenA, { arguments: { subject, body: 'from agent a' } })
    const second = await asAgent(token, { arguments: { subject, body: 'from agent hostile' } })
    expect(first.status, first.text).toBe(200)
    expect(second.status, second.text).toBe(200)
    expect(hits() - before).toBe(1)
    expect(second.json.result).toEqual(first.json.result)
    expect(second.json.callId).toBe(first.json.callId)
    const rows = await prisma.toolCall.findMany({
      where: { toolId: 'tickets.create', idempotencyKey: { startsWith: 'zendesk-' } },
      orderBy: { startedAt: 'asc' },
    })
    expect(rows.slice(-2).map((r) => [r.agentName, r.outcome])).toEqual([
      ['agent-a', 'succeeded'],
      ['agent-hostile', 'deduplicated'],
    ])
  })

  it("a key the caller sends stays the caller's: the same key from two agents runs twice", async () => {
    const hits = () => world.rest.hits.get('/tickets') ?? 0
    const before = hits()
    const key = `caller-key-${crypto.randomUUID()}`
    const a = await asAgent(world.tokens.tokenA, { arguments: { subject: `a ${key}`, body: 'x' }, idempotencyKey: key })
    const b = await asAgent(token, { arguments: { subject: `b ${key}`, body: 'y' }, idempotencyKey: key })
    const aAgain = await asAgent(world.tokens.tokenA, { arguments: { subject: `a ${key}`, body: 'x' }, idempotencyKey: key })
    expect([a.status, b.status, aAgain.status]).toEqual([200, 200, 200])
    expect(hits() - before).toBe(2)
    expect(b.json.callId).not.toBe(a.json.callId)
    expect(aAgain.json.callId).toBe(a.json.callId)
  })
})
