// Each refusal names the limit that was hit. Numbers JSON cannot carry as sent (1e400, 1e-400, a
// 20-digit integer) are refused where they are, by rule, on the REST call endpoint and on /mcp,
// instead of being checked as one value and forwarded as another; a 100 KB body of such numbers is
// refused for its numbers, never as too large; bodies and upstream answers over a size limit name the
// bytes and the setting. Real gateway process code, real upstreams of the test's own.
import type http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { config, reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { type Listening, listen, listenOn } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'

const ANSWER_LIMIT = 256 * 1024
const savedAnswerLimit = process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES
process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES = String(ANSWER_LIMIT)
reloadConfig()

const HUGE_INTEGER = '1234567890'.repeat(10)
/** About 100 KB of integers no double holds exactly. */
const HUGE_NUMBERS = `[${Array.from({ length: 1000 }, () => HUGE_INTEGER).join(',')}]`

let rest: Listening
let mcp: Listening
let gateway: Listening
let token: string
/** What the REST upstream was sent, by path. */
const received: Array<{ path: string; body: string }> = []
let mcpCalls = 0

async function restUpstream(req: http.IncomingMessage, res: http.ServerResponse) {
  let body = ''
  for await (const chunk of req) body += chunk
  const path = new URL(req.url ?? '/', 'http://x').pathname
  received.push({ path, body })
  if (path === '/big' || path === '/events') {
    // Streamed without a length, so only counting can stop it; as events, 300 messages of 1 KB each.
    res.writeHead(200, { 'content-type': path === '/big' ? 'text/plain' : 'text/event-stream' })
    for (let i = 0; i < 300; i++) res.write(path === '/big' ? 'x'.repeat(1024) : `data: ${'x'.repeat(1016)}\n\n`)
    return void res.end()
  }
  if (path === '/numbers') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"numbers":${HUGE_NUMBERS}}`)
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: body }))
}

function bigMcpServer(): Server {
  const server = new Server({ name: 'big', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }))
  server.setRequestHandler(CallToolRequestSchema, async () => {
    mcpCalls++
    return { content: [{ type: 'text', text: 'y'.repeat(300 * 1024) }] }
  })
  return server
}

const manifest = () => `
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: pay.quote, namespace: lm }
spec:
  type: rest
  description: A quote for an amount of at most 100
  endpoint: { method: POST, url: "${rest.url}/quote" }
  inputSchema: { type: object, required: [amount], properties: { amount: { type: number, maximum: 100 }, id: { type: integer } } }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: big.rest, namespace: lm }
spec:
  type: rest
  description: Answers 300 KB
  endpoint: { method: GET, url: "${rest.url}/big" }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: events.rest, namespace: lm }
spec:
  type: rest
  description: Answers 300 small events
  endpoint: { method: GET, url: "${rest.url}/events" }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: numbers.rest, namespace: lm }
spec:
  type: rest
  description: Answers 100 KB of huge integers
  endpoint: { method: GET, url: "${rest.url}/numbers" }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: big, namespace: lm }
spec:
  endpoint: "${mcp.url}/mcp"
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: big.mcp, namespace: lm }
spec:
  type: mcp
  description: Answers 300 KB over MCP
  mcpServerRef: { name: big, tool: big }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: lm }
spec:
  grants: [pay.quote, big.rest, events.rest, numbers.rest, big.mcp]
`

/** The REST call endpoint, with the body as raw JSON text (so literals like 1e400 reach the server as written). */
const restCall = (toolId: string, argumentsJson: string) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: `{"arguments":${argumentsJson}}`,
    contentType: 'application/json',
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

async function mcpPost(body: string) {
  const res = await fetch(`${gateway.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  })
  return { status: res.status, json: await res.json() }
}
const toolsCall = (name: string, argumentsJson: string) =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`

beforeAll(async () => {
  await resetDatabase()
  rest = await listen((req, res) => void restUpstream(req, res))
  mcp = await listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(bigMcpServer, req, res)
  })
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  await applyManifest(manifest())
  const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'caller', namespace: 'lm' } })
  token = await issueAgentCredential(agent.id, 'lm')
})

afterAll(async () => {
  await closeMcpSessions()
  await gateway?.close()
  await rest?.close()
  await mcp?.close()
  if (savedAnswerLimit === undefined) delete process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES
  else process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES = savedAnswerLimit
  reloadConfig()
})

describe('numbers JSON cannot carry as sent', () => {
  it('are refused on the REST call endpoint by rule and field, before the inputSchema could pass -1e400 on as null', async () => {
    const before = received.length
    const cases = [
      ['{"amount":-1e400}', 'arguments.amount', 'number-range', 'it would become null'],
      ['{"amount":1e-400}', 'arguments.amount', 'number-range', 'it would become 0'],
      ['{"amount":5,"id":12345678901234567890}', 'arguments.id', 'number-precision', 'exact for every integer only up to 9007199254740991 (2^53 - 1)'],
    ] as const
    for (const [args, field, rule, says] of cases) {
      const res = await restCall('pay.quote', args)
      expect(res.status, res.text).toBe(422)
      expect(res.json.errors).toEqual([{ field, rule, message: expect.stringContaining(says) }])
      expect(res.json.detail).toContain(field)
    }
    expect(received.length).toBe(before)
    // What a double holds exactly passes as before.
    expect((await restCall('pay.quote', '{"amount":99.5,"id":9007199254740991}')).status).toBe(200)
  })

  it('are refused on /mcp naming the field and the rule, a JSON-RPC id among them', async () => {
    const range = await mcpPost(toolsCall('pay.quote', '{"amount":-1e400}'))
    expect(range.status).toBe(400)
    expect(range.json.error).toMatchObject({ code: -32600, data: { field: 'params.arguments.amount', rule: 'number-range' } })
    expect(range.json.error.message).toContain('out of range')
    const precise = await mcpPost(`{"jsonrpc":"2.0","id":123456789012345678901,"method":"tools/list"}`)
    expect(precise.json.error).toMatchObject({ code: -32600, data: { field: 'id', rule: 'number-precision' } })
  })

  it('in a 100 KB body are refused for the numbers, not as too large', async () => {
    const body = toolsCall('pay.quote', `{"amount":1,"numbers":${HUGE_NUMBERS}}`)
    expect(body.length).toBeGreaterThan(100_000)
    const overMcp = await mcpPost(body)
    expect(overMcp.status).toBe(400)
    expect(overMcp.json.error.data).toEqual({ field: 'params.arguments.numbers[0]', rule: 'number-precision' })
    expect(overMcp.json.error.message).not.toMatch(/bytes/)
    const overRest = await restCall('pay.quote', `{"amount":1,"numbers":${HUGE_NUMBERS}}`)
    expect(overRest.status).toBe(422)
    expect(overRest.json.errors[0]).toMatchObject({ field: 'arguments.numbers[0]', rule: 'number-precision' })
  })

  it('in an upstream answer under the size limit reach the agent as the upstream wrote them', async () => {
    const res = await restCall('numbers.rest', '{}')
    expect(res.status).toBe(200)
    expect(res.json.result.content[0].text).toContain(HUGE_INTEGER)
  })
})

describe('size limits', () => {
  it('name the bytes and the setting of an /mcp body over the limit', async () => {
    const limit = config().TOOLROOM_GATEWAY_MAX_BODY_BYTES
    const res = await mcpPost(toolsCall('pay.quote', JSON.stringify({ amount: 1, pad: 'z'.repeat(limit) })))
    expect(res.status).toBe(413)
    expect(res.json.error.message).toBe(`the request body is larger than the limit of ${limit} bytes for /mcp (TOOLROOM_GATEWAY_MAX_BODY_BYTES)`)
  })

  it('name the bytes and the setting of an upstream answer over the limit, REST and MCP alike', async () => {
    const overRest = await restCall('big.rest', '{}')
    expect(overRest.status).toBe(502)
    expect(overRest.json.detail).toContain(`sent more than the limit of ${ANSWER_LIMIT} bytes for its answers (TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES)`)
    const overMcp = await restCall('big.mcp', '{}')
    expect(mcpCalls).toBe(1)
    expect(overMcp.status).toBe(502)
    expect(overMcp.json.detail).toContain(`sent more than the limit of ${ANSWER_LIMIT} bytes for its answers (TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES)`)
    // Not "cannot be reached", and not retried: the same answer would be as large again.
    expect(overMcp.json.detail).not.toContain('cannot be reached')
  })

  it('say that an event stream is counted over its whole life, so small messages are not mistaken for one huge answer', async () => {
    const res = await restCall('events.rest', '{}')
    expect(res.status).toBe(502)
    expect(res.json.detail).toContain(
      `'s event stream carried more than the limit of ${ANSWER_LIMIT} bytes for its answers (TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES), counted over the whole stream`,
    )
  })
})
