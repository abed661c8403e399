// MCP introspection against real servers built with the official SDK (streamable HTTP with and
// without sessions, SSE, paging), plus slow, never-ready, non-MCP and non-compliant servers, all on
// 127.0.0.1 random ports, through the SSRF-guarded fetch. No database needed.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { introspectMcpServer, McpIntrospectionError } from '@/lib/discovery/introspect-mcp-server'
import { buildComplianceReport, COMPLIANCE_PROBE_TOOL } from '@/lib/discovery/mcp-compliance'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { createGuardedFetch, type GuardedFetch } from '@/lib/outbound/guarded-fetch'
import { listen, type Listening } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'

const guarded = createGuardedFetch(parseAddressPolicy('loopback,private'))
const FAST = { fetch: guarded, readinessTimeoutMs: 5_000, requestTimeoutMs: 3_000 }

// ---------------------------------------------------------------------------------------------
// Test servers

const running: Listening[] = []

/** One request a test server received, and whether its connection has ended (answered or dropped). */
interface Received {
  request: string
  ended: boolean
}
type Serving = Listening & { received: Received[]; requests: () => string[] }

/**
 * A server this file closes after its tests; a handler's failure is a 500. It keeps what it received
 * ("GET /health"): how often discovery asked is what shows it did not retry or wait, not the clock.
 */
async function serve(handler: http.RequestListener): Promise<Serving> {
  const received: Received[] = []
  const handle = await listen((req, res) => {
    const entry = { request: `${req.method} ${pathOf(req)}`, ended: false }
    received.push(entry)
    res.on('close', () => (entry.ended = true))
    Promise.resolve(handler(req, res)).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(e))
    })
  })
  running.push(handle)
  return { ...handle, received, requests: () => received.map((r) => r.request) }
}

const pathOf = (req: http.IncomingMessage) => new URL(req.url ?? '/', 'http://x').pathname

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : undefined
}

/** The annotated tools of server (a), registered with McpServer. */
function annotatedServer(name = 'github') {
  const server = new McpServer({ name, version: '1.4.0' })
  server.registerTool(
    'search_issues',
    {
      title: 'Search issues',
      description: 'Finds issues by text',
      inputSchema: { query: z.string().describe('What to look for'), limit: z.number().int().optional() },
      outputSchema: { count: z.number() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => ({ content: [{ type: 'text', text: '0' }], structuredContent: { count: 0 } }),
  )
  server.registerTool(
    'delete_issue',
    {
      description: 'Deletes an issue for good',
      inputSchema: { id: z.number() },
      annotations: { title: 'Delete issue', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => ({ content: [{ type: 'text', text: 'deleted' }] }),
  )
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }))
  return server
}

/** (a) Streamable HTTP with sessions, annotated tools, GET /health. */
async function startSessionServer() {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const seen = { deletes: 0, sessionsOpened: 0 }
  const handle = await serve(async (req, res) => {
    const path = pathOf(req)
    if (path === '/health') return json(res, 200, { status: 'ok' })
    if (path !== '/mcp') return json(res, 404, { error: 'not found' })
    const sessionId = req.headers['mcp-session-id'] as string | undefined
    if (req.method === 'DELETE') seen.deletes++
    if (req.method === 'POST') {
      const body = await readBody(req)
      if (!sessionId && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, transport)
            seen.sessionsOpened++
          },
        })
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId)
        }
        await annotatedServer().connect(transport)
        return transport.handleRequest(req, res, body)
      }
      const transport = sessionId ? sessions.get(sessionId) : undefined
      if (!transport) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no valid session' } })
      return transport.handleRequest(req, res, body)
    }
    const transport = sessionId ? sessions.get(sessionId) : undefined
    if (!transport) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no valid session' } })
    return transport.handleRequest(req, res)
  })
  return { ...handle, sessions, seen }
}

/** Stateless streamable HTTP: a fresh server and transport per POST; GET and DELETE are 405. */
async function startStatelessServer(build: () => McpServer | Server, opts: { health: boolean; json: boolean }) {
  return serve(async (req, res) => {
    const path = pathOf(req)
    if (path === '/health') return opts.health ? json(res, 200, { status: 'ok' }) : json(res, 404, { error: 'no such route' })
    if (path !== '/mcp') return json(res, 404, { error: 'not found' })
    if (req.method !== 'POST') return json(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } })
    await answerStatelessMcp(build, req, res, { json: opts.json })
  })
}

/** (c) SSE only: GET /sse opens the stream, POST /messages?sessionId= carries the requests. */
async function startSseServer() {
  const transports = new Map<string, SSEServerTransport>()
  return serve(async (req, res) => {
    const path = pathOf(req)
    if (path === '/health') return json(res, 200, { status: 'ok' })
    if (path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res)
      transports.set(transport.sessionId, transport)
      res.on('close', () => transports.delete(transport.sessionId))
      await annotatedServer('legacy-sse').connect(transport)
      return
    }
    if (path === '/messages' && req.method === 'POST') {
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? ''
      const transport = transports.get(id)
      if (!transport) return json(res, 404, { error: 'unknown session' })
      return transport.handlePostMessage(req, res)
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>')
  })
}

/** (d) A low-level Server whose tools/list answers in three pages. */
const PAGES: Array<{ tools: Array<Record<string, unknown>>; nextCursor?: string }> = [
  {
    tools: [
      { name: 'create-issue', description: 'Opens an issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
      { name: 'listRepos', title: 'List repositories', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ],
    nextCursor: 'page-2',
  },
  {
    tools: [
      { name: 'Search Docs', description: 'Full-text search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: '!!!', inputSchema: { type: 'object' } },
    ],
    nextCursor: 'page-3',
  },
  {
    tools: [
      { name: 'create_issue', description: 'Same canonical name as create-issue', inputSchema: { type: 'object' } },
      { name: 'listRepos', description: 'Listed twice', inputSchema: { type: 'object' } },
      { name: 'get_user', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { login: { type: 'string' } } } },
    ],
  },
]

function pagingServer() {
  const server = new Server({ name: 'pager', version: '2.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const cursor = request.params?.cursor
    const index = cursor === undefined ? 0 : Number(cursor.replace('page-', '')) - 1
    return PAGES[index] as never
  })
  return server
}

/** A JSON-RPC server written by hand: `answer` decides the HTTP answer to each request. */
async function startHandWrittenServer(opts: {
  health: (res: http.ServerResponse) => void
  contentType?: string
  tools: unknown[]
  onCall?: (res: http.ServerResponse, body: { id: unknown; params?: { name?: string } }) => void
  onUnknownMethod?: (res: http.ServerResponse, body: { id: unknown }) => void
}) {
  const contentType = opts.contentType ?? 'application/json'
  const reply = (res: http.ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': contentType }).end(JSON.stringify(body))
  return serve(async (req, res) => {
    const path = pathOf(req)
    if (path === '/health') return opts.health(res)
    if (path !== '/mcp' || req.method !== 'POST') return res.writeHead(405).end()
    const body = (await readBody(req)) as { id?: unknown; method: string; params?: { name?: string } }
    if (body.id === undefined) return res.writeHead(202).end()
    switch (body.method) {
      case 'initialize':
        return reply(res, {
          jsonrpc: '2.0',
          id: body.id,
          result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'handmade', version: '0.1' } },
        })
      case 'tools/list':
        return reply(res, { jsonrpc: '2.0', id: body.id, result: { tools: opts.tools } })
      case 'tools/call':
        if (opts.onCall) return opts.onCall(res, body as { id: unknown })
        return reply(res, { jsonrpc: '2.0', id: body.id, error: { code: -32602, message: `Tool ${body.params?.name} not found` } })
      default:
        if (opts.onUnknownMethod) return opts.onUnknownMethod(res, body as { id: unknown })
        return reply(res, { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } })
    }
  })
}

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()))
})

/** What a plain SDK client lists at `url`, reduced to the stored fields: the reference for "kept exactly". */
async function referenceTools(url: string) {
  const client = new Client({ name: 'reference', version: '1' })
  const transport = new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport)
  const { tools } = await client.listTools()
  await transport.terminateSession().catch(() => {})
  await client.close()
  return tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(inputSchema !== undefined ? { inputSchema } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  }))
}

const statusOf = (report: { items: Array<{ id: string; status: string }> }) => Object.fromEntries(report.items.map((i) => [i.id, i.status]))

// ---------------------------------------------------------------------------------------------

describe('MCP introspection over streamable HTTP', () => {
  let a: Awaited<ReturnType<typeof startSessionServer>>
  beforeAll(async () => {
    a = await startSessionServer()
  })

  it('(a) lists every tool of a session server, annotations kept, sessions closed', async () => {
    const result = await introspectMcpServer({ endpoint: `${a.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.health).toBe('ok')
    expect(result.transport).toBe('streamable-http')
    expect(result.serverInfo).toEqual({ name: 'github', version: '1.4.0' })
    expect(result.protocolVersion).toBe('2025-11-25')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
    expect(result.tools[0]).toMatchObject({
      title: 'Search issues',
      description: 'Finds issues by text',
      annotations: { readOnlyHint: true, openWorldHint: true },
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to look for' } }, required: ['query'] },
      outputSchema: { type: 'object', properties: { count: { type: 'number' } } },
    })
    expect(result.tools[1].annotations).toEqual({
      title: 'Delete issue',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    })
    expect(result.tools[2]).toEqual({ name: 'ping', description: 'Answers pong', inputSchema: { type: 'object', properties: {} } })
    expect(result.refused).toEqual([])
    // Exactly what a plain SDK client sees.
    expect(result.tools).toEqual(await referenceTools(`${a.url}/mcp`))
    expect(result.timings.readyMs).toBeGreaterThanOrEqual(0)
    expect(result.timings.listMs).toBeGreaterThanOrEqual(0)
    // Discovery (whose session the compliance probes reuse) and the reference client each opened one
    // session and DELETEd it; the reference client's DELETE may still be on its way.
    await until('both sessions deleted', () => a.seen.deletes >= 2 && a.sessions.size === 0)
    expect(a.seen.sessionsOpened).toBe(2)
    expect(a.seen.deletes).toBe(2)
    expect(a.sessions.size).toBe(0)
  })

  it('(a) takes a base URL: health at the root, MCP at /mcp', async () => {
    const result = await introspectMcpServer({ endpoint: a.url, transport: 'streamable-http' }, FAST)
    expect(result.transport).toBe('streamable-http')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
  })

  it('(a) asked for SSE, a streamable server is still found over streamable HTTP', async () => {
    const result = await introspectMcpServer({ endpoint: `${a.url}/mcp`, transport: 'sse' }, FAST)
    expect(result.transport).toBe('streamable-http')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
  })

  it('(i) a compliant server passes every checklist item', async () => {
    const result = await introspectMcpServer({ endpoint: `${a.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.compliance.status).toBe('pass')
    expect(statusOf(result.compliance)).toEqual({ 'json-rpc': 'pass', 'tools-list': 'pass', 'tools-call': 'pass', health: 'pass', 'mcp-errors': 'pass' })
    const errors = result.compliance.items.find((i) => i.id === 'mcp-errors')!
    expect(errors.detail).toContain('JSON-RPC error -32601')
    expect(result.compliance.items.find((i) => i.id === 'tools-call')!.detail).toContain(
      `${COMPLIANCE_PROBE_TOOL} answered a result with isError: true (HTTP 200)`,
    )
  })

  it('(b) a stateless server with no /health route (404) is still discovered', async () => {
    const b = await startStatelessServer(() => annotatedServer('stateless'), { health: false, json: true })
    const result = await introspectMcpServer({ endpoint: `${b.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.health).toBe('absent')
    expect(result.transport).toBe('streamable-http')
    expect(result.serverInfo?.name).toBe('stateless')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
    expect(result.tools[1].annotations).toMatchObject({ destructiveHint: true, idempotentHint: true, openWorldHint: false })
    // A 404 means there is no such route: asked once, never waited for.
    expect(b.requests().filter((r) => r === 'GET /health')).toEqual(['GET /health'])
    const health = result.compliance.items.find((i) => i.id === 'health')!
    expect(health).toMatchObject({ status: 'fail' })
    expect(health.detail).toMatch(/404/)
    expect(statusOf(result.compliance)).toMatchObject({ 'json-rpc': 'pass', 'tools-list': 'pass', 'tools-call': 'pass', 'mcp-errors': 'pass' })
  })

  it('(d) follows nextCursor over three pages; odd names kept, unusable ones refused', async () => {
    const d = await startStatelessServer(pagingServer, { health: true, json: false })
    const result = await introspectMcpServer({ endpoint: `${d.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.transport).toBe('streamable-http')
    expect(result.serverInfo).toEqual({ name: 'pager', version: '2.0.0' })
    expect(result.tools).toEqual([PAGES[0].tools[0], PAGES[0].tools[1], PAGES[1].tools[0], PAGES[2].tools[2]])
    expect(result.refused).toEqual([
      { name: '!!!', reason: 'no canonical tool id can be made of the name "!!!"' },
      { name: 'create_issue', reason: 'its canonical name "create_issue" is already taken by the tool "create-issue"' },
      { name: 'listRepos', reason: 'duplicate name: entry 6 of tools/list repeats entry 2' },
    ])
    // The low-level server has no tools/call handler: it answers -32601 for the probe, which is compliant.
    expect(statusOf(result.compliance)).toMatchObject({ 'tools-call': 'pass', 'mcp-errors': 'pass' })
  })

  it('(d) maxPages bounds the paging', async () => {
    const d = await startStatelessServer(pagingServer, { health: true, json: true })
    await expect(introspectMcpServer({ endpoint: `${d.url}/mcp`, transport: 'streamable-http' }, { ...FAST, maxPages: 2 })).rejects.toThrow(
      /^tools\/list failed over streamable-http \(POST http:\/\/127\.0\.0\.1:\d+\/mcp\): more than 2 pages \(maxPages\)/,
    )
  })
})

describe('MCP introspection over SSE', () => {
  let c: Listening
  beforeAll(async () => {
    c = await startSseServer()
  })

  it('(c) an SSE-only server, asked for SSE at its base URL: tries the URL, then /sse', async () => {
    const result = await introspectMcpServer({ endpoint: c.url, transport: 'sse' }, FAST)
    expect(result.health).toBe('ok')
    expect(result.transport).toBe('sse')
    expect(result.serverInfo?.name).toBe('legacy-sse')
    expect(result.protocolVersion).toBe('2025-11-25')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
    expect(result.tools[0].annotations).toEqual({ readOnlyHint: true, openWorldHint: true })
    // Probed over the SSE connection itself.
    expect(result.compliance.status).toBe('pass')
  })

  it('(c) asked for streamable HTTP at /mcp, falls back to SSE at /sse', async () => {
    const result = await introspectMcpServer({ endpoint: `${c.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.transport).toBe('sse')
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
  })
})

describe('readiness', () => {
  it('(e) waits while /health answers 503, then goes on', async () => {
    const e = await startStatelessServer(() => annotatedServer('slow'), { health: true, json: true })
    let healthAnswers = 0
    const slow = await serve((req, res) => {
      if (pathOf(req) === '/health') return ++healthAnswers <= 2 ? json(res, 503, { status: 'starting' }) : json(res, 200, { status: 'ok' })
      // Everything else goes to the stateless server.
      const proxied = http.request(`${e.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
      req.pipe(proxied)
    })
    const result = await introspectMcpServer({ endpoint: `${slow.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.health).toBe('ok')
    expect(result.compliance.items.find((i) => i.id === 'health')!.detail).toMatch(/answered 200 \{"status":"ok"\} \(attempt 3, /)
    // Asked again after each 503 and not once more after the 200; MCP only once ready.
    const requests = slow.requests()
    expect(requests.filter((r) => r === 'GET /health')).toHaveLength(3)
    expect(requests.slice(0, 4)).toEqual(['GET /health', 'GET /health', 'GET /health', 'POST /mcp'])
    expect(result.tools.map((t) => t.name)).toEqual(['search_issues', 'delete_issue', 'ping'])
  })

  it('(f) fails with the last answer when /health never becomes ok', async () => {
    const f = await serve((req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('warming up'))
    const error = await introspectMcpServer({ endpoint: `${f.url}/mcp`, transport: 'streamable-http' }, { ...FAST, readinessTimeoutMs: 600 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(McpIntrospectionError)
    expect((error as McpIntrospectionError).step).toBe('readiness')
    const [, attempts] =
      /^readiness timed out after 600 ms: GET http:\/\/127\.0\.0\.1:\d+\/health never answered 200 \{"status":"ok"\} \((\d+) attempts\); last answer: HTTP 503 warming up$/.exec(
        (error as Error).message,
      ) ?? []
    // The deadline ended the backoff (250 ms, then 500 ms shortened to fit): three attempts, or two on a
    // machine too busy for the third to fit. The server saw the attempts the message counts and nothing
    // after, no MCP request either.
    expect(Number(attempts)).toBeGreaterThanOrEqual(2)
    expect(Number(attempts)).toBeLessThanOrEqual(3)
    expect(f.requests()).toEqual(Array.from({ length: Number(attempts) }, () => 'GET /health'))
  })

  it('(f) a 200 that is not {"status":"ok"} is not ready either', async () => {
    const f = await serve((req, res) => json(res, 200, { status: 'degraded' }))
    await expect(introspectMcpServer({ endpoint: f.url, transport: 'streamable-http' }, { ...FAST, readinessTimeoutMs: 300 })).rejects.toThrow(
      /last answer: HTTP 200 \{"status":"degraded"\}$/,
    )
  })
})

describe('failures', () => {
  it('(g) an endpoint that is not MCP fails with what each transport saw', async () => {
    const g = await serve((req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>'))
    const error = await introspectMcpServer({ endpoint: `${g.url}/mcp`, transport: 'streamable-http' }, FAST).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(McpIntrospectionError)
    expect((error as McpIntrospectionError).step).toBe('initialize')
    const message = (error as Error).message
    // The newest revision first: a server that answers its server/discover with no MCP answer is not a 2026-07-28 server.
    expect(message).toMatch(
      /^initialize failed over all transports: streamable-http, MCP 2026-07-28 \(POST http:\/\/127\.0\.0\.1:\d+\/mcp\): Version negotiation failed: the server did not offer pinned protocol version 2026-07-28/,
    )
    expect(message).toMatch(/; streamable-http \(POST http:\/\/127\.0\.0\.1:\d+\/mcp\): HTTP 404: Streamable HTTP error: Error POSTing to endpoint: <html>/)
    expect(message).toMatch(/; sse \(GET http:\/\/127\.0\.0\.1:\d+\/mcp\): HTTP 404: SSE error: Non-200 status code \(404\)/)
    expect(message).toMatch(/; sse \(GET http:\/\/127\.0\.0\.1:\d+\/sse\): HTTP 404: SSE error: Non-200 status code \(404\)/)
    expect(message).toMatch(
      /; stateless-post \(POST http:\/\/127\.0\.0\.1:\d+\/mcp\): initialize answered HTTP 404: <html><body><h1>Not Found<\/h1><\/body><\/html>$/,
    )
    expect(message).not.toMatch(/\n\s+at /)
    // The 404 health route is not waited on, and each transport gave up on its first 404: one request
    // each, no retry.
    expect(g.requests()).toEqual(['GET /health', 'POST /mcp', 'POST /mcp', 'GET /mcp', 'GET /sse', 'POST /mcp'])
  })

  it('(h) a metadata address is refused by the guard before any connection', async () => {
    const calls: string[] = []
    const spy: GuardedFetch = (url, init, limits) => {
      calls.push(String(url))
      return guarded(url, init, limits)
    }
    const error = await introspectMcpServer({ endpoint: 'http://169.254.169.254/mcp', transport: 'streamable-http' }, { ...FAST, fetch: spy }).catch(
      (e: unknown) => e,
    )
    expect((error as McpIntrospectionError).step).toBe('readiness')
    expect((error as Error).message).toBe(
      'readiness check refused by the outbound guard: GET http://169.254.169.254/health: 169.254.169.254 is a link-local, metadata or reserved address, which is never allowed',
    )
    // One attempt: a refusal is final, never retried with the readiness backoff.
    expect(calls).toEqual(['http://169.254.169.254/health'])
  })

  it('a server that accepts connections but never answers: every transport is bounded in time', async () => {
    const asked: string[] = []
    const hanging = await serve(async (req, res) => {
      if (pathOf(req) === '/health') return json(res, 200, { status: 'ok' })
      // never answers anything else
      const body = req.method === 'POST' ? ((await readBody(req)) as { method?: string }) : undefined
      asked.push(`${req.method} ${pathOf(req)}${body ? ` ${body.method}` : ''}`)
    })
    const error = await introspectMcpServer({ endpoint: `${hanging.url}/mcp`, transport: 'streamable-http' }, { ...FAST, requestTimeoutMs: 250 }).catch(
      (e: unknown) => e,
    )
    const message = (error as Error).message
    expect(message).toMatch(
      /^initialize failed over all transports: streamable-http, MCP 2026-07-28 \(POST [^)]+\): Version negotiation probe timed out after 250ms; /,
    )
    // The SDK's own request timeout and the fetch's bound are both 250 ms: either reports first.
    expect(message).toMatch(/; streamable-http \(POST [^)]+\): (.*did not answer within 250 ms|MCP error -32001: Request timed out); /)
    expect(message).toMatch(/; sse \(GET [^)]+\/mcp\): no answer within 500 ms; sse \(GET [^)]+\/sse\): no answer within 500 ms; /)
    expect(message).toMatch(/; stateless-post \(POST [^)]+\): http:\/\/127\.0\.0\.1:\d+ did not answer within 250 ms$/)
    // Bounded by discovery's own limits, not by the server: each transport asked once, and every request
    // this server never answered was dropped by the client.
    // (The SDK may also tell the server it cancelled its initialize, when its own timeout fired first.)
    expect(asked.filter((r) => r !== 'POST /mcp notifications/cancelled')).toEqual([
      'POST /mcp server/discover',
      'POST /mcp initialize',
      'GET /mcp',
      'GET /sse',
      'POST /mcp initialize',
    ])
    await until('every unanswered request dropped by discovery', () => hanging.received.every((r) => r.ended))
  })

  it('an invalid endpoint is an error of its own', async () => {
    await expect(introspectMcpServer({ endpoint: 'not a url', transport: 'sse' }, FAST)).rejects.toThrow('endpoint "not a url" is not a valid URL')
  })

  it('an aborted signal stops the wait', async () => {
    const controller = new AbortController()
    // Aborted once the first readiness answer is on its way, so the abort lands in the backoff wait.
    const never = await serve((req, res) => {
      res.writeHead(503).end()
      controller.abort(new Error('worker shutting down'))
    })
    await expect(introspectMcpServer({ endpoint: never.url, transport: 'streamable-http' }, { ...FAST, signal: controller.signal })).rejects.toThrow(
      'introspection aborted: worker shutting down',
    )
    expect(never.requests()).toEqual(['GET /health'])
  })
})

describe('compliance of a non-compliant server', () => {
  it('(i) HTTP 500 for unknown tools, a non-JSON-RPC 400 for unknown methods, no /health, a tool without inputSchema', async () => {
    const i = await startHandWrittenServer({
      health: (res) => res.writeHead(404).end(),
      tools: [
        { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        { name: 'legacy', description: 'No schema' },
      ],
      onCall: (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error'),
      onUnknownMethod: (res) => json(res, 400, { error: 'unknown method' }),
    })
    const result = await introspectMcpServer({ endpoint: `${i.url}/mcp`, transport: 'streamable-http' }, FAST)
    // The SDK client takes a tool without inputSchema; discovery keeps it as listed.
    expect(result.tools).toEqual([
      { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: 'legacy', description: 'No schema' },
    ])
    expect(result.compliance.status).toBe('fail')
    expect(statusOf(result.compliance)).toEqual({ 'json-rpc': 'pass', 'tools-list': 'fail', 'tools-call': 'fail', health: 'fail', 'mcp-errors': 'fail' })
    const detail = Object.fromEntries(result.compliance.items.map((x) => [x.id, x.detail]))
    expect(detail['tools-list']).toBe('"legacy" has no inputSchema')
    expect(detail['tools-call']).toBe(
      `tools/call of the missing tool ${COMPLIANCE_PROBE_TOOL} answered HTTP 500 with no JSON-RPC answer: Internal Server Error`,
    )
    expect(detail['mcp-errors']).toBe(
      'tools/call of a missing tool answered HTTP 500 with no JSON-RPC answer: Internal Server Error; the unknown method toolroom/compliance_probe answered HTTP 400 with no JSON-RPC answer: {"error":"unknown method"}, expected JSON-RPC error -32601',
    )
    expect(detail.health).toBe('GET /health answered 404: the server has no /health route')
  })

  it('a server only plain POSTs can read (JSON with a text/plain type) is discovered as stateless-post', async () => {
    const j = await startHandWrittenServer({
      health: (res) => json(res, 200, { status: 'ok' }),
      contentType: 'text/plain',
      tools: [{ name: 'listRepos', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      onUnknownMethod: (res, body) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32600, message: 'nope' } })),
    })
    const result = await introspectMcpServer({ endpoint: `${j.url}/mcp`, transport: 'streamable-http' }, FAST)
    expect(result.transport).toBe('stateless-post')
    expect(result.serverInfo).toEqual({ name: 'handmade', version: '0.1' })
    expect(result.protocolVersion).toBe('2025-06-18')
    expect(result.tools).toEqual([{ name: 'listRepos', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }])
    expect(statusOf(result.compliance)).toEqual({ 'json-rpc': 'pass', 'tools-list': 'pass', 'tools-call': 'pass', health: 'pass', 'mcp-errors': 'fail' })
    expect(result.compliance.items.find((x) => x.id === 'mcp-errors')!.detail).toMatch(
      /answered JSON-RPC error -32600 "nope" \(HTTP 200\), expected -32601 \(method not found\)$/,
    )
  })

  it('the report of nothing observed is all unknown (pure builder)', () => {
    const report = buildComplianceReport({})
    expect(report.status).toBe('unknown')
    expect(report.items.map((x) => x.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown'])
    expect(buildComplianceReport({ initialize: null, initializeError: 'HTTP 404' }).items[0]).toMatchObject({
      status: 'fail',
      detail: 'initialize failed: HTTP 404',
    })
  })
})
