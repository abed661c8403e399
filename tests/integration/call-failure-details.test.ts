// A failed call keeps what the upstream answered (an HTTP error's body, an MCP error object, an
// isError result's text), redacted and bounded: upstreams that echo the credential the gateway
// injected (bearer, basic, a named header, MCP authHeaders), echo a redacted argument, answer a
// megabyte, or answer text PostgreSQL cannot store. Then the tool failure view's API over those calls.
import type http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { statsRoutes, toolCallDetail } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { MAX_UPSTREAM_EXCERPT } from '@/lib/gateway/redact'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { type Listening, listen } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'
import { resetCalls } from './stats-fixtures'

const BEARER = 'sk-live-ECHOED-bearer-5f1e2d3c4b'
const BASIC = 'svc-user:pa55-ECHOED-basic-9a8b7c'
const HEADER_KEY = 'key-with-"quote"-ECHOED-77e1'
const MCP_KEY = 'mcp-ECHOED-header-secret-31c4'
const CARD = '4111-1111-1111-1111-ECHOED'

let rest: Listening
let mcp: Listening
let token: string
let agentId: string

/** Answers every request with an error that quotes the request back: headers, path and body. */
async function echoingRest(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  const url = new URL(req.url ?? '/', 'http://x')
  if (url.pathname === '/huge')
    return void res.writeHead(500, { 'content-type': 'text/plain' }).end(`${'x'.repeat(1_990)}${req.headers.authorization} ${'y'.repeat(1024 * 1024)}`)
  if (url.pathname === '/unstorable') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('bad\u0000byte and a lone \ud800 surrogate')
  const status = url.pathname === '/busy' ? 503 : 500
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'denied', youSent: { headers: req.headers, body } }))
}

function echoingMcpServer(): Server {
  const server = new Server({ name: 'echoing', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const key = String(extra.requestInfo?.headers['x-upstream-key'] ?? 'none')
    if (request.params.name === 'refuse') throw new McpError(ErrorCode.InvalidRequest, `key ${key} is not allowed here`, { keySeen: key })
    return { isError: true, content: [{ type: 'text', text: `I cannot do that with key ${key}` }] }
  })
  return server
}

const manifest = (restUrl: string, mcpUrl: string) => `
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: bearer-token, namespace: fx }
spec: { type: bearer, stringData: { token: "${BEARER}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: basic-login, namespace: fx }
spec: { type: basic, stringData: { login: "${BASIC}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: header-key, namespace: fx }
spec: { stringData: { key: ${JSON.stringify(HEADER_KEY)} } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: mcp-key, namespace: fx }
spec: { stringData: { key: "${MCP_KEY}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: echoing, namespace: fx }
spec:
  endpoint: "${mcpUrl}/mcp"
  authHeaders: [{ name: x-upstream-key, secretRef: { name: mcp-key } }]
${[
  ['echo.bearer', 'POST', '/orders', 'bearer', 'bearer-token', 'logArgs: true, logResult: true, redactFields: [args.card]'],
  ['echo.basic', 'POST', '/orders', 'basic', 'basic-login', 'logArgs: false, logResult: false, redactFields: [args.card]'],
  ['echo.header', 'GET', '/lookup', 'header', 'header-key', 'logArgs: true'],
  ['echo.busy', 'GET', '/busy', 'bearer', 'bearer-token', 'logArgs: true'],
  ['echo.huge', 'GET', '/huge', 'bearer', 'bearer-token', 'logArgs: true'],
  ['echo.unstorable', 'GET', '/unstorable', 'bearer', 'bearer-token', 'logArgs: true'],
]
  .map(
    ([name, method, path, type, secret, observability]) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: fx }
spec:
  type: rest
  description: ${name}
  endpoint: { method: ${method}, url: "${restUrl}${path}", auth: { type: ${type}, ${type === 'header' ? 'header: x-api-key, ' : ''}secretRef: { name: ${secret} } } }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  observability: { ${observability} }
`,
  )
  .join('')}---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: echo.mcp_refuse, namespace: fx }
spec:
  type: mcp
  description: An MCP tool whose server answers a JSON-RPC error quoting its header
  mcpServerRef: { name: echoing, tool: refuse }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: echo.mcp_is_error, namespace: fx }
spec:
  type: mcp
  description: An MCP tool whose result is an error quoting its header
  mcpServerRef: { name: echoing, tool: shout }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: fx }
spec:
  grants: [echo.bearer, echo.basic, echo.header, echo.busy, echo.huge, echo.unstorable, echo.mcp_refuse, echo.mcp_is_error]
`

const callTool = (toolId: string, args: Record<string, unknown> = {}) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: { arguments: args },
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)])
  return []
}

/** The stored row of a failed call, and every text in it (columns, and keys and values of its JSON), one per line. */
async function storedRow(callId: string) {
  const row = await prisma.toolCall.findFirstOrThrow({ where: { id: callId } })
  return { row, text: strings(row).join('\n') }
}

const ALL_SECRETS = [BEARER, BASIC, Buffer.from(BASIC).toString('base64'), HEADER_KEY, JSON.stringify(HEADER_KEY).slice(1, -1), MCP_KEY, CARD]

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
  rest = await listen((req, res) => void echoingRest(req, res))
  mcp = await listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(echoingMcpServer, req, res)
  })
  await applyManifest(manifest(rest.url, mcp.url))
  agentId = (await prisma.agent.findFirstOrThrow({ where: { name: 'caller', namespace: 'fx' } })).id
  token = await issueAgentCredential(agentId, 'fx')
})

afterAll(async () => {
  await closeMcpSessions()
  await rest?.close()
  await mcp?.close()
})

describe('the upstream reply excerpt of a failed call', () => {
  it('keeps a REST error body with the injected bearer token and a redacted argument scrubbed', async () => {
    const res = await callTool('echo.bearer', { card: CARD, note: 'hello' })
    expect(res.status).toBe(502)
    const { row, text } = await storedRow(res.json.data.callId)
    expect(row.outcome).toBe('failed')
    expect(row.errorCode).toBe('upstream_status')
    expect(row.upstreamExcerpt).toContain('"error":"denied"')
    expect(row.upstreamExcerpt).toContain('Bearer [REDACTED]')
    expect(row.upstreamExcerpt).toContain('hello')
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
    // The API answers what was stored.
    const detail = await call(statsRoutes.call, `/api/v1/calls/${row.id}`, { params: { id: row.id } })
    expect(detail.status).toBe(200)
    expect(toolCallDetail.parse(detail.json).upstreamExcerpt).toBe(row.upstreamExcerpt)
  })

  it('scrubs a basic login (as sent, base64) and a masked argument even when arguments are not logged', async () => {
    const res = await callTool('echo.basic', { card: CARD })
    const { row, text } = await storedRow(res.json.data.callId)
    expect(row.args).toBeNull()
    expect(row.upstreamExcerpt).toContain('Basic [REDACTED]')
    expect(row.upstreamExcerpt).toContain('[REDACTED]')
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
  })

  it('scrubs a header secret that the echo escaped inside JSON', async () => {
    const res = await callTool('echo.header')
    const { row, text } = await storedRow(res.json.data.callId)
    expect(row.upstreamExcerpt).toContain('"x-api-key":"[REDACTED]"')
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
  })

  it('keeps the last reply of a transient failure after its retries', async () => {
    const res = await callTool('echo.busy')
    const { row, text } = await storedRow(res.json.data.callId)
    expect(row).toMatchObject({ errorCode: 'transient', attempts: 3 })
    expect(row.upstreamExcerpt).toContain('Bearer [REDACTED]')
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
  })

  it('keeps at most 2000 characters of a megabyte, with no piece of a secret that straddles the cut', async () => {
    const res = await callTool('echo.huge')
    const { row, text } = await storedRow(res.json.data.callId)
    expect(row.upstreamExcerpt!.length).toBeLessThanOrEqual(MAX_UPSTREAM_EXCERPT + 1)
    expect(row.upstreamExcerpt!.startsWith('x'.repeat(1_990))).toBe(true)
    // The token starts before the cut and ends after it: only the mask's start may be left.
    expect(row.upstreamExcerpt!.slice(1_990)).toBe('Bearer [RE…')
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
    for (let cut = 6; cut < BEARER.length; cut += 5) expect(row.upstreamExcerpt).not.toContain(BEARER.slice(0, cut))
  })

  it('stores text PostgreSQL cannot hold in a safe form instead of losing the call', async () => {
    const res = await callTool('echo.unstorable')
    const { row } = await storedRow(res.json.data.callId)
    expect(row.upstreamExcerpt).toBe('bad␀byte and a lone \ufffd surrogate')
  })

  it('keeps an MCP JSON-RPC error object and an isError result, their header secret scrubbed', async () => {
    const refused = await callTool('echo.mcp_refuse')
    expect(refused.status, refused.text).toBe(502)
    const first = await storedRow(refused.json.data.callId)
    expect(first.row.errorCode).toBe('upstream_error')
    // The SDK's server prefixes the message of an McpError it sends: the excerpt is what came over the wire.
    expect(JSON.parse(first.row.upstreamExcerpt!)).toEqual({
      code: ErrorCode.InvalidRequest,
      message: 'MCP error -32600: key [REDACTED] is not allowed here',
      data: { keySeen: '[REDACTED]' },
    })
    for (const secret of ALL_SECRETS) expect(first.text).not.toContain(secret)

    const isError = await callTool('echo.mcp_is_error')
    expect(isError.status).toBe(200)
    const second = await storedRow(isError.json.callId)
    expect(second.row).toMatchObject({ outcome: 'failed', errorCode: 'tool_error', upstreamExcerpt: 'I cannot do that with key [REDACTED]' })
    for (const secret of ALL_SECRETS) expect(second.text).not.toContain(secret)
  })
})

describe('the tool failure view', () => {
  it('answers failure rate, errors by code and message, agents and the latest failures of a tool', async () => {
    // A second agent's calls of the same tool, recorded as ingest would, so the breakdown has two rows.
    await prisma.$executeRawUnsafe(
      `INSERT INTO "ToolCall" ("startedAt", "agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", "toolKey", provenance, channel, outcome, "errorCode", "errorMessage")
       SELECT now() - i * interval '1 minute', '0c000000-0000-4000-8000-000000000001', 'fx', 'gone-agent', 'echo.bearer', 'echo', 'Tool/fx/echo.bearer', 'grant', 'ingest',
         CASE WHEN i % 2 = 0 THEN 'succeeded' ELSE 'failed' END, CASE WHEN i % 2 = 1 THEN 'timeout' END, CASE WHEN i % 2 = 1 THEN 'the agent gave up after 30 s' END
       FROM generate_series(1, 6) AS i`,
    )
    await callTool('echo.bearer', { card: CARD })
    await rollupCallStats()
    const res = await call(statsRoutes.toolFailures, `/api/v1/stats/tool-failures?key=${encodeURIComponent('Tool/fx/echo.bearer')}`)
    expect(res.status, res.text).toBe(200)
    const body = res.json
    expect(body).toMatchObject({ key: 'Tool/fx/echo.bearer', toolId: 'echo.bearer', source: { kind: 'Tool', namespace: 'fx', name: 'echo.bearer' } })
    expect(body.stats.totals).toMatchObject({ calls: 8, failures: 5 })
    const seen = { firstSeen: expect.any(String), lastSeen: expect.any(String) }
    expect(body.errors).toEqual([
      { code: 'timeout', message: 'the agent gave up after 30 s', failures: 3, share: 0.6, ...seen },
      { code: 'upstream_status', message: 'the endpoint answered 500 Internal Server Error', failures: 2, share: 0.4, ...seen },
    ])
    // First and last seen are the hours of the first and the last of the group's failures.
    const hourOf = (t: number) => new Date(Math.floor(t / 3_600_000) * 3_600_000).toISOString()
    const timeouts = await prisma.toolCall.findMany({ where: { toolKey: 'Tool/fx/echo.bearer', errorCode: 'timeout' }, orderBy: { startedAt: 'asc' } })
    expect(body.errors[0]).toMatchObject({
      firstSeen: hourOf(timeouts[0].startedAt.getTime()),
      lastSeen: hourOf(timeouts.at(-1)!.startedAt.getTime()),
    })
    expect(body.agentsTotal).toBe(2)
    expect(body.agents).toEqual([
      { agentId: '0c000000-0000-4000-8000-000000000001', namespace: null, name: null, calls: 6, failures: 3, refused: 0, failureRate: 0.5 },
      { agentId, namespace: 'fx', name: 'caller', calls: 2, failures: 2, refused: 0, failureRate: 1 },
    ])
    expect(body.recent).toHaveLength(5)
    expect(body.recent[0].upstreamExcerpt).toContain('Bearer [REDACTED]')
    expect(new Date(body.recent[0].startedAt) >= new Date(body.recent[1].startedAt)).toBe(true)
    expect(res.text).not.toContain(BEARER)
    expect(res.text).not.toContain(CARD)
  })

  it('answers an unknown tool with empty figures, and a malformed key with a problem naming the field and rule', async () => {
    const empty = await call(statsRoutes.toolFailures, '/api/v1/stats/tool-failures?key=Tool/fx/no.such_tool')
    expect(empty.status).toBe(200)
    expect(empty.json).toMatchObject({ errors: [], agents: [], agentsTotal: 0, recent: [] })
    for (const [key, rule] of [
      ['', 'required'],
      ['NotAKind/x', 'invalid'],
      ['Tool/fx/a b', 'format'],
      [`Tool/fx/${'a'.repeat(700)}`, 'max-length'],
      ["Tool/fx/x' OR 1=1", 'format'],
    ]) {
      const res = await call(statsRoutes.toolFailures, `/api/v1/stats/tool-failures${key === '' ? '' : `?key=${encodeURIComponent(key)}`}`)
      expect(res.status, key).toBe(400)
      expect(res.contentType).toMatch(/problem\+json/)
      expect(res.json.errors[0]).toMatchObject({ field: 'key', rule })
    }
    const extra = await call(statsRoutes.toolFailures, '/api/v1/stats/tool-failures?key=Tool/fx/echo.bearer&limit=5')
    expect(extra.status).toBe(400)
    expect(extra.json.errors[0]).toMatchObject({ field: 'limit', rule: 'unknown-field' })
  })
})
