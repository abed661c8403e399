// The era remembered between runs: a periodic run whose compliance report is fresh tries first the
// transport that reached the server last time (a 2025-era server then takes one session attempt, no
// server/discover first), and a server whose era changed between runs is still discovered, over the
// transport it speaks now. One address, in front of a 2025-era SDK server and a 2026-07-28-only one;
// which answers is switched between runs.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { startModernUpstreamMcp } from '../support/gateway-fixtures'
import { listen, type Listening } from '../support/listen'
import { applyManifest } from './helpers'

const legacyTools = [{ name: 'legacy-echo', description: 'Echoes', inputSchema: { type: 'object' } }]

async function startLegacyServer(): Promise<Listening> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  return listen(async (req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    const id = req.headers['mcp-session-id'] as string | undefined
    let transport = id ? sessions.get(id) : undefined
    if (id && !transport) return void res.writeHead(404).end()
    if (!transport) {
      const server = new Server({ name: 'legacy', version: '1' }, { capabilities: { tools: {} } })
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: legacyTools }))
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'unknown tool' }], isError: true }))
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      })
      created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId))
      await server.connect(created)
      transport = created
    }
    await transport.handleRequest(req, res)
  })
}

let legacy: Listening
let modern: Listening
let front: Listening
let behind: 'legacy' | 'modern' = 'legacy'
/** The 2026-07-28 requests that reached the address (whoever answered them). */
let serverDiscovers = 0
let serverId = ''

beforeAll(async () => {
  legacy = await startLegacyServer()
  modern = await startModernUpstreamMcp()
  // Forwards each request, body and all, to whichever server is behind it now.
  front = await listen(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    if (body.includes('"server/discover"')) serverDiscovers++
    const target = new URL(req.url ?? '/', behind === 'legacy' ? legacy.url : modern.url)
    const upstream = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    upstream.end(body)
  })
  await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: switching, namespace: era }
spec: { endpoint: "${front.url}/mcp" }
`)
  serverId = (await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'era', name: 'switching' } } })).id
}, 60_000)

afterAll(async () => {
  await front?.close()
  await legacy?.close()
  await modern?.close()
})

async function discover(trigger: 'manual' | 'periodic') {
  const before = serverDiscovers
  const run = await runMcpDiscovery({ id: serverId, trigger })
  const server = await prisma.languageTool.findUniqueOrThrow({ where: { id: serverId } })
  const tools = (server.toolSchemas as Array<{ name: string }>).map((t) => t.name)
  return { run, server, tools, serverDiscovers: serverDiscovers - before }
}

describe('the era remembered from the last run', () => {
  it('a first run tries 2026-07-28 first; a periodic run then goes straight to the 2025-era session', async () => {
    behind = 'legacy'
    const first = await discover('manual')
    expect(first.run.status).toBe('succeeded')
    expect(first.server).toMatchObject({ phase: 'Ready', detectedTransport: 'streamable-http', detectedUrl: `${front.url}/mcp` })
    expect(first.tools).toEqual(['legacy-echo'])
    expect(first.serverDiscovers).toBe(1)

    const again = await discover('periodic')
    expect(again.run.status).toBe('succeeded')
    expect(again.server.detectedTransport).toBe('streamable-http')
    expect(again.serverDiscovers).toBe(0)
  })

  it('a server that moved to 2026-07-28 between runs is discovered over it, and remembered so', async () => {
    behind = 'modern'
    const moved = await discover('periodic')
    expect(moved.run).toMatchObject({ status: 'succeeded' })
    expect(moved.server).toMatchObject({ phase: 'Ready', detectedTransport: 'streamable-http-2026-07-28' })
    expect(moved.tools).toContain('echo')
    expect(moved.tools).not.toContain('legacy-echo')
  })

  it('a server that went back to the 2025 era is discovered over its session again', async () => {
    behind = 'legacy'
    const back = await discover('periodic')
    expect(back.run).toMatchObject({ status: 'succeeded' })
    expect(back.server).toMatchObject({ phase: 'Ready', detectedTransport: 'streamable-http' })
    expect(back.tools).toEqual(['legacy-echo'])
    expect(back.serverDiscovers).toBe(1)
  })

  it('a run that re-probes compliance tries the newest revision first again, so a server that gained it is found', async () => {
    behind = 'legacy'
    const probed = await discover('manual')
    expect(probed.run.status).toBe('succeeded')
    expect(probed.serverDiscovers).toBe(1)
  })
})
