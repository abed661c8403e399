// The gateway's protocol surface under hostile and malformed JSON-RPC: agents are isolated from each
// other inside the one SDK Server (a cancellation reaches only the sender's own request), and every
// request is answered with the right error object, whatever its params hold.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { prisma } from '@/lib/db'
import { mcpTransport } from '@/lib/gateway/mcp-handler'
import { agentClient, startGatewayWorld } from '../support/gateway-fixtures'
import { until } from '../support/until'
import { call } from './helpers'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

let world: World
let a: Client
let b: Client

async function post(body: unknown, token = world.tokens.tokenA, timeoutMs = 10_000) {
  const res = await fetch(`${world.gatewayUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}

const slowSeen = () => world.rest.seen.filter((s) => s.path === '/slow').length

beforeAll(async () => {
  world = await startGatewayWorld('sk-protocol-0a1b2c3d4e')
  a = await agentClient(world.gatewayUrl, world.tokens.tokenA)
  b = await agentClient(world.gatewayUrl, world.tokens.tokenB)
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await world?.stop()
})

describe('agents are isolated inside the gateway', () => {
  it("a cancellation with guessed ids from one agent never reaches another agent's call", async () => {
    const seen = slowSeen()
    const call = b.callTool({ name: 'slow.read', arguments: { ms: 1200 } }, undefined, { timeout: 8000 })
    await until('the upstream to receive the call', () => slowSeen() > seen)
    // Agent A guesses: every small id, as numbers and strings, in the gateway's sequence and in B's client's.
    const guesses = Array.from({ length: 50 }, (_, i) => [i, String(i)]).flat()
    for (let i = 0; i < guesses.length; i += 100) {
      const batch = guesses
        .slice(i, i + 100)
        .map((requestId) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'guess' } }))
      expect((await post(batch)).status).toBe(202)
    }
    const result = await call
    expect(result.structuredContent).toMatchObject({ ok: true, waited: 1200 })
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'slow.read', agentName: 'agent-b' }, orderBy: { startedAt: 'desc' } })
    expect(row.outcome).toBe('succeeded')
  })

  it('an agent cancels its own in-flight call, and the call is recorded as failed at once', async () => {
    const seen = slowSeen()
    const controller = new AbortController()
    // The upstream answers after 10 s (the longest it waits): longer than the wait below would last.
    const upstreamWaitMs = 10_000
    const call = a.callTool({ name: 'slow.read', arguments: { ms: upstreamWaitMs } }, undefined, { signal: controller.signal })
    await until('the upstream to receive the call', () => slowSeen() > seen)
    controller.abort('no longer needed')
    await expect(call).rejects.toThrow()
    const failed = await until('the call recorded as failed', async () => {
      const rows = await prisma.toolCall.findMany({ where: { toolId: 'slow.read', agentName: 'agent-a', outcome: 'failed' } })
      return rows.length > 0 && rows
    })
    expect(failed).toHaveLength(1)
    // Failed because the agent cancelled, and recorded before the upstream could have answered: the
    // record's own latency is under the upstream's wait (a recording that waited for the upstream
    // would show at least that), whatever the load on this machine.
    expect(failed[0].errorMessage).toMatch(/: cancelled by the client: no longer needed$/)
    expect(failed[0].latencyMs).toBeLessThan(upstreamWaitMs)
    // and a cancelled call is not sent again, nor recorded as tried again
    expect(slowSeen()).toBe(seen + 1)
    expect(failed[0].attempts).toBe(1)
    await until('no upstream request in flight', () => mcpTransport().inFlight === 0)
  })
})

describe('every JSON-RPC request gets an answer', () => {
  const bad: Array<[string, unknown, number]> = [
    ['params an array', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }, -32602],
    ['_meta a number', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: 5 } }, -32602],
    [
      'progressToken an object',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'upstream.echo', arguments: { text: 'x' }, _meta: { progressToken: { a: 1 } } } },
      -32602,
    ],
    ['progressToken a fraction', { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: { progressToken: 1.5 } } }, -32602],
    ['cursor a number', { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { cursor: 7 } }, -32602],
    ['arguments an array', { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'upstream.echo', arguments: [1] } }, -32602],
    ['name empty', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: '' } }, -32602],
    ['params a string', { jsonrpc: '2.0', id: 8, method: 'tools/list', params: 'x' }, -32600],
    ['unknown top-level member', { jsonrpc: '2.0', id: 9, method: 'ping', extra: true }, -32600],
  ]
  for (const [what, message, code] of bad)
    it(`answers ${what} with ${code}, under the request's id`, async () => {
      const res = await post(message)
      expect(res.json.error.code).toBe(code)
      expect(res.json.id).toBe((message as { id: number }).id)
      expect(res.json.error.message).not.toMatch(/MCP error/)
    })

  it('answers an id that is no string or integer with -32600 and id null', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1.5, method: 'ping' })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('answers initialize with bad params -32602 naming the fields, not -32603 with a schema dump', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: 2025, capabilities: 'all' } })
    expect(res.json.error.code).toBe(-32602)
    expect(res.json.error.message).toMatch(/protocolVersion/)
    expect(res.json.error.message).toMatch(/clientInfo/)
    expect(res.json.error.message).not.toMatch(/[[{]\s*"/)
    expect(res.json.error.data.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['params.protocolVersion', 'params.capabilities', 'params.clientInfo']),
    )
  })

  it('answers each message of a batch, the malformed ones with their own error', async () => {
    const res = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: [] }, 17])
    expect(res.status).toBe(200)
    expect(res.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32602 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
    ])
  })

  it('refuses a malformed notification with 400, and ignores task augmentation it does not offer', async () => {
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { x: 1 } } })).status).toBe(400)
    const res = await post({
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: { name: 'upstream.echo', arguments: { text: 'task' }, task: { ttl: 1000 } },
    })
    expect(res.json.result.structuredContent).toEqual({ echo: 'task' })
  })

  it('answers 20 large malformed requests at once and keeps nothing pending', async () => {
    const filler = 'x'.repeat(900 * 1024)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post({ jsonrpc: '2.0', id: i, method: 'tools/list', params: { _meta: 5, filler } }, world.tokens.tokenA, 10_000)),
    )
    for (const [i, res] of answers.entries()) expect(res.json).toMatchObject({ id: i, error: { code: -32602 } })
    expect(mcpTransport().inFlight).toBe(0)
  })

  it('sends error messages without a doubled "MCP error" prefix', async () => {
    const e = await a.callTool({ name: 'upstream.echo', arguments: { text: 'x' }, _meta: { progressToken: 'p' } }).then(
      () => null,
      (err) => err,
    )
    expect(e).toBeNull()
    const refused = await a.callTool({ name: 'nope.nothing', arguments: {} }).then(
      () => null,
      (err: McpError) => err,
    )
    expect(refused).toBeInstanceOf(McpError)
    expect(refused!.message.match(/MCP error/g)).toHaveLength(1)
    const raw = await post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'nope.nothing', arguments: {} } })
    expect(raw.json.error.message).toMatch(/^unknown tool/)
  })
})

describe('the gateway lists only what it can execute', () => {
  const agentFleet = fleetRoutes('Agent')

  it('leaves image (and function) tools out of tools/list and toolroom.list_tools, keeps them in the effective set, and refuses their calls with -32602 saying they run inside the agent', async () => {
    const agentA = world.tokens.agentA
    const upload = await call(agentFleet.putImageTools, `/api/v1/agents/${agentA}/image-tools`, {
      method: 'PUT',
      params: { id: agentA },
      body: {
        digest: `sha256:${'ab'.repeat(32)}`,
        tools: [{ name: 'acme.clock', description: 'Reads the clock inside the agent', inputSchema: { type: 'object', properties: {} } }],
      },
    })
    expect(upload.status, upload.text).toBe(200)
    const effective = await call(agentFleet.effectiveTools, `/api/v1/agents/${agentA}/effective-tools`, { params: { id: agentA } })
    expect(effective.json.effectiveTools.find((t: { name: string }) => t.name === 'acme.clock')).toMatchObject({ state: 'enabled', tier: 'image' })

    // the refusal names the image (and waits for the gateway to see the new surface)
    const refusal = await until('a refusal naming the image', async () => {
      const error = await a.callTool({ name: 'acme.clock', arguments: {} }).then(
        () => null,
        (e: McpError) => e,
      )
      return error !== null && /image/.test(error.message) && error
    })
    expect(refusal.code).toBe(-32602)
    expect((refusal.data as { reason: string }).reason).toMatch(/agent runs it and reports the call to POST \/api\/v1\/calls\/ingest/)
    expect((await a.listTools()).tools.map((t) => t.name)).not.toContain('acme.clock')
    const listed = await a.callTool({ name: 'toolroom.list_tools', arguments: {} })
    expect((listed.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).not.toContain('acme.clock')
    expect(await prisma.toolCall.findFirst({ where: { toolId: 'acme.clock', channel: 'mcp' }, orderBy: { startedAt: 'desc' } })).toMatchObject({
      outcome: 'denied',
      errorCode: 'not_executable',
    })

    // over REST the same refusal keeps its problem+json meaning: 404 not available
    const rest = await call(gatewayRoutes.callTool, '/api/v1/gateway/tools/acme.clock/call', {
      method: 'POST',
      body: { arguments: {} },
      params: { toolId: 'acme.clock' },
      headers: { authorization: `Bearer ${world.tokens.tokenA}` },
    })
    expect(rest.status).toBe(404)
    expect(rest.json).toMatchObject({ rpcCode: -32602, data: { outcome: 'denied' } })

    // function tools run in the agent's code just the same
    expect((await a.listTools()).tools.map((t) => t.name)).not.toContain('local.summarize')
    const fn = await a.callTool({ name: 'local.summarize', arguments: { text: 'x' } }).then(
      () => null,
      (e: McpError) => e,
    )
    expect(fn?.code).toBe(-32602)
    expect((fn?.data as { reason: string }).reason).toMatch(
      /function tool: it runs in the agent's code, which reports the call to POST \/api\/v1\/calls\/ingest/,
    )

    // and the agent records the calls it ran itself through ingest
    const ingested = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
      method: 'POST',
      body: { calls: [{ toolId: 'acme.clock', outcome: 'succeeded', startedAt: new Date().toISOString(), latencyMs: 3 }] },
      headers: { authorization: `Bearer ${world.tokens.tokenA}` },
    })
    expect(ingested.status, ingested.text).toBe(202)
  })
})
