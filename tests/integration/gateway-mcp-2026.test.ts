// MCP 2026-07-28 at /mcp beside 2025-11-25: SDK v2's client (pinned to the new revision, and in its
// "auto" negotiation) lists and calls tools through the same pipeline; the revision's own rules
// (per-request envelope, mirrored headers, no batches, its error codes) are answered as it specifies,
// and the 2025-11-25 client keeps working on the same endpoint.
import { Client as ModernClient, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { agentClient, inOneRateWindow, modernAgentClient, startGatewayWorld } from '../support/gateway-fixtures'
import { rejectionOf } from '../support/rejection-of'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

let world: World
let client: ModernClient

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

/** The fields of a JSON-RPC answer these tests read; `expect` checks them. */
interface RpcAnswer {
  result: Record<string, unknown>
  error: { code: number; message: string; data: { issues: Array<{ path: string }> } }
}

async function post(body: unknown, headers: Record<string, string> = {}, token = world.tokens.tokenA) {
  const res = await fetch(`${world.gatewayUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  let json: RpcAnswer
  try {
    json = JSON.parse(text) as RpcAnswer
  } catch {
    // A body that is not JSON has none of the fields: a test that reads one fails there.
    json = {} as RpcAnswer
  }
  return { status: res.status, json, contentType: res.headers.get('content-type') }
}

beforeAll(async () => {
  world = await startGatewayWorld('sk-modern-5e6f7a8b9c')
  client = await modernAgentClient(world.gatewayUrl, world.tokens.tokenA)
})

afterAll(async () => {
  await client?.close()
  await world?.stop()
})

describe('MCP 2026-07-28 with SDK v2', () => {
  it('connects without a handshake, on the 2026-07-28 revision, and lists the same tools as 2025-11-25', async () => {
    expect(client.getProtocolEra()).toBe('modern')
    expect(client.getServerVersion()?.name).toBe('toolroom-gateway')
    const modern = (await client.listTools()).tools.map((t) => t.name).sort()
    const legacyClient = await agentClient(world.gatewayUrl, world.tokens.tokenA)
    const legacy = (await legacyClient.listTools()).tools.map((t) => t.name).sort()
    await legacyClient.close()
    expect(modern).toEqual(legacy)
    expect(modern).toContain('upstream.echo')
    expect(modern).not.toContain('secret.only_b')
  })

  it('negotiates 2026-07-28 in "auto" mode (server/discover), and names both revisions it knows', async () => {
    const auto = new ModernClient({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await auto.connect(
      new StreamableHTTPClientTransport(new URL(`${world.gatewayUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${world.tokens.tokenA}` } } }),
    )
    expect(auto.getProtocolEra()).toBe('modern')
    await auto.close()
    const discover = await post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }, { 'mcp-method': 'server/discover' })
    expect(discover.status).toBe(200)
    expect(discover.json.result).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, resultType: 'complete' })
  })

  it('calls a tool through the whole pipeline: forwarded upstream, recorded once', async () => {
    const before = world.mcp.counts.echo
    const result = await client.callTool({ name: 'upstream.echo', arguments: { text: 'modern hello' } })
    expect(result.structuredContent).toEqual({ echo: 'modern hello' })
    expect(world.mcp.counts.echo).toBe(before + 1)
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'upstream.echo' }, orderBy: { startedAt: 'desc' } })
    expect(row).toMatchObject({ outcome: 'succeeded', channel: 'mcp', agentName: 'agent-a' })
  })

  it('answers the same refusals: unknown tools -32602 with the reason, invalid arguments as a tool error', async () => {
    const unknown = await rejectionOf(client.callTool({ name: 'nope.nothing', arguments: {} }), ProtocolError)
    expect(unknown.code).toBe(-32602)
    expect((unknown.data as { reason: string }).reason).toMatch(/effective set/)
    const invalid = await client.callTool({ name: 'tickets.create', arguments: { subject: 7 } })
    expect(invalid.isError).toBe(true)
    expect(invalid.structuredContent).toMatchObject({ error: 'invalid_arguments', tool: 'tickets.create' })
  })

  it('answers rate limits with a code outside the range the revision reserves for itself', async () => {
    const codes = await inOneRateWindow('minute', async () => {
      const codes: number[] = []
      for (let i = 0; i < 4; i++) {
        try {
          await client.callTool({ name: 'limited.ping', arguments: {} })
        } catch (e) {
          if (e instanceof ProtocolError) codes.push(e.code)
          else throw e
        }
      }
      return codes
    })
    expect(codes).toEqual([-31029])
  })

  it('puts resultType, serverInfo and a private cache hint on tools/list', async () => {
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } }, { 'mcp-method': 'tools/list' })
    expect(res.json.result).toMatchObject({
      resultType: 'complete',
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'toolroom-gateway' } },
    })
    expect(res.json.result.ttlMs).toBeGreaterThan(0)
  })
})

describe("the revision's own rules, answered as it specifies", () => {
  it('refuses headers that disagree with the body (-32020, 400)', async () => {
    const missing = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } })
    expect(missing.status).toBe(400)
    expect(missing.json.error.code).toBe(-32020)
    const other = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'upstream.echo', arguments: { text: 'x' }, _meta: META } },
      { 'mcp-method': 'tools/call', 'mcp-name': 'toolroom.list_tools' },
    )
    expect(other.status).toBe(400)
    expect(other.json.error.code).toBe(-32020)
  })

  it('refuses an unsupported revision with -32022 listing the supported ones, and an envelope without its required fields with -32602', async () => {
    const old = await post(
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
      { 'mcp-method': 'tools/list', 'mcp-protocol-version': '2099-01-01' },
    )
    expect(old.status).toBe(400)
    expect(old.json.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } })
    const partial = await post(
      { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
      { 'mcp-method': 'tools/list' },
    )
    expect(partial.status).toBe(400)
    expect(partial.json.error.code).toBe(-32602)
  })

  it('names each violation of a method schema (-32602 with data.issues), not a dump of the validator', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'upstream.echo', arguments: [1, 2], _meta: META } },
      { 'mcp-method': 'tools/call', 'mcp-name': 'upstream.echo' },
    )
    expect(res.json.error.code).toBe(-32602)
    expect(res.json.error.message).toMatch(/params\.arguments/)
    expect(res.json.error.message).not.toMatch(/[[{]\s*"/)
    expect(res.json.error.data.issues[0].path).toBe('params.arguments')
  })

  it('refuses batches holding a 2026-07-28 request, and answers unknown methods with 404 and -32601', async () => {
    const batch = await post([{ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: META } }], { 'mcp-method': 'tools/list' })
    expect(batch.status).toBe(400)
    expect(batch.json.error.code).toBe(-32600)
    const unknown = await post({ jsonrpc: '2.0', id: 9, method: 'resources/list', params: { _meta: META } }, { 'mcp-method': 'resources/list' })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error.code).toBe(-32601)
  })

  it('keeps 2025-11-25 semantics for requests without the envelope on the same endpoint', async () => {
    const init = await post(
      { jsonrpc: '2.0', id: 10, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } },
      { 'mcp-protocol-version': '2025-11-25' },
    )
    expect(init.status).toBe(200)
    expect(init.json.result).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } } })
    expect(init.json.result.resultType).toBeUndefined()
  })

  it('refuses a browser page from another origin (DNS rebinding), on either revision, before anything else', async () => {
    const evil = await post(
      { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { _meta: META } },
      { 'mcp-method': 'tools/list', origin: 'http://evil.example.com', host: 'evil.example.com' },
    )
    expect(evil.status).toBe(403)
    expect(evil.json.error.code).toBe(-32600)
    const legacyEvil = await post({ jsonrpc: '2.0', id: 13, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25', origin: 'https://evil.example.com' })
    expect(legacyEvil.status).toBe(403)
    const nobody = await post({ jsonrpc: '2.0', id: 14, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25', origin: 'null' }, 'tra_forged')
    expect(nobody.status).toBe(403)
    // A local web UI (an MCP inspector on this machine) may talk to it.
    const local = await post({ jsonrpc: '2.0', id: 15, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25', origin: 'http://localhost:6274' })
    expect(local.status).toBe(200)
  })

  it('asks for the agent credential on either revision', async () => {
    const res = await post({ jsonrpc: '2.0', id: 11, method: 'tools/list', params: { _meta: META } }, { 'mcp-method': 'tools/list' }, 'tra_forged')
    expect(res.status).toBe(401)
  })
})
