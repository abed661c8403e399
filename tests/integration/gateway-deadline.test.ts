// One deadline per call (docs/design/gateway.md, "One deadline per call"): a read-only tool's
// retries and their backoff come out of the same budget, so an upstream that drips a byte a second,
// answers 503 slowly, or never answers a forwarded MCP call cannot stretch a call to attempts ×
// timeout. Each upstream is the test's own and counts the attempts it saw; the assertions are on those
// counts and on what the call record says, with elapsed time only bounded far above the budget.
import type http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explainRoutes } from '@/lib/api/explain-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { config, reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { Explanation } from '@/lib/explain/explanation-schema'
import { runApprovedCall } from '@/lib/gateway/call-tool'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { type Listening, listen } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'

const BUDGET_MS = 1500
const savedMcpTimeout = process.env.TOOLROOM_GATEWAY_MCP_TIMEOUT_MS
process.env.TOOLROOM_GATEWAY_MCP_TIMEOUT_MS = String(BUDGET_MS)
reloadConfig()

let rest: Listening
let mcp: Listening
let token: string
let agentId: string
/** Requests each upstream path received, and how many of them have ended (answered or cut off by the caller). */
const hits = new Map<string, number>()
const ended = new Map<string, number>()
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

function slowRest(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  bump(hits, path)
  res.on('close', () => bump(ended, path))
  if (path === '/drip' || path === '/drip-approved') {
    // Headers at once, then one byte a second, never the end: each attempt only ends by a timeout.
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('[')
    const drip = setInterval(() => res.write('1,'), 1000)
    res.on('close', () => clearInterval(drip))
    return
  }
  // 503 after most of the budget: a second attempt cannot get a whole timeout of its own.
  const timer = setTimeout(() => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy, try again'), 1000)
  res.on('close', () => clearTimeout(timer))
}

/** An MCP server whose `hang` never answers until the caller gives up. */
function hangingMcpServer(): Server {
  const server = new Server({ name: 'hanging', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }))
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    bump(hits, 'mcp:hang')
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }))
    return { content: [{ type: 'text', text: 'too late' }] }
  })
  return server
}

const restTool = (name: string, path: string, level: string, approval = false) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: dl }
spec:
  type: rest
  description: ${name}
  endpoint: { method: GET, url: "${rest.url}${path}", timeoutMs: ${BUDGET_MS} }
  inputSchema: { type: object }
  sideEffects: { level: ${level}${approval ? ', requiresApproval: true' : ''} }
`

const manifest =
  () => `${restTool('slow.drip', '/drip', 'read_only')}${restTool('slow.busy', '/busy', 'read_only')}${restTool('slow.write', '/busy-write', 'local_write')}${restTool('slow.approved', '/drip-approved', 'read_only', true)}---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: hanging, namespace: dl }
spec:
  endpoint: "${mcp.url}/mcp"
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: slow.hang, namespace: dl }
spec:
  type: mcp
  description: An MCP tool whose server never answers
  mcpServerRef: { name: hanging, tool: hang }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: dl }
spec:
  grants: [slow.drip, slow.busy, slow.write, slow.hang, slow.approved]
`

const callTool = (toolId: string) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: { arguments: {} },
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

/** Calls the tool and answers its stored record, once the upstream has seen every attempt end. */
async function failedCall(toolId: string, counted: string) {
  const res = await callTool(toolId)
  expect(res.status).toBe(502)
  const row = await prisma.toolCall.findFirstOrThrow({ where: { id: res.json.data.callId } })
  if (counted.startsWith('/')) await until(`every attempt at ${counted} to end`, () => ended.get(counted) === hits.get(counted))
  return { res, row }
}

beforeAll(async () => {
  await resetDatabase()
  rest = await listen(slowRest)
  mcp = await listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(hangingMcpServer, req, res)
  })
  await applyManifest(manifest())
  agentId = (await prisma.agent.findFirstOrThrow({ where: { name: 'caller', namespace: 'dl' } })).id
  token = await issueAgentCredential(agentId, 'dl')
})

afterAll(async () => {
  await closeMcpSessions()
  await rest?.close()
  await mcp?.close()
  if (savedMcpTimeout === undefined) delete process.env.TOOLROOM_GATEWAY_MCP_TIMEOUT_MS
  else process.env.TOOLROOM_GATEWAY_MCP_TIMEOUT_MS = savedMcpTimeout
  reloadConfig()
})

describe('one deadline per call', () => {
  it('gives a read-only REST tool against a slow-drip upstream one attempt within timeoutMs, not one timeout per retry', async () => {
    const { res, row } = await failedCall('slow.drip', '/drip')
    // The first attempt used the whole budget: no retry was left to start.
    expect(hits.get('/drip')).toBe(1)
    expect(row).toMatchObject({ outcome: 'failed', errorCode: 'deadline_exceeded', attempts: 1 })
    expect(row.errorMessage).toContain(`deadline of ${BUDGET_MS} ms (timeoutMs, retries included) was hit after 1 attempt`)
    expect(res.json.data).toMatchObject({ attempts: 1, failure: 'deadline', budgetMs: BUDGET_MS })
    // Every attempt with a timeout of its own would take at least budget × attempts.
    expect(row.latencyMs!).toBeLessThan(BUDGET_MS * config().TOOLROOM_GATEWAY_MAX_ATTEMPTS)
  })

  it('retries a slow 503 only while the budget lasts, and says how many attempts it made', async () => {
    const { row } = await failedCall('slow.busy', '/busy')
    const attempts = hits.get('/busy')!
    // 1000 ms per 503 in a 1500 ms budget: a second attempt at most, cut short by the deadline.
    expect(attempts).toBeLessThan(config().TOOLROOM_GATEWAY_MAX_ATTEMPTS)
    expect(row).toMatchObject({ errorCode: 'deadline_exceeded', attempts })
    expect(row.errorMessage).toContain(`was hit after ${attempts} attempt`)
    expect(row.upstreamExcerpt ?? '').toMatch(/^(busy, try again)?$/)
    expect(row.latencyMs!).toBeLessThan(BUDGET_MS * config().TOOLROOM_GATEWAY_MAX_ATTEMPTS)
  })

  it('leaves the failure of a tool that is not retried as it was when the budget is not what ended it', async () => {
    const { row } = await failedCall('slow.write', '/busy-write')
    expect(hits.get('/busy-write')).toBe(1)
    expect(row).toMatchObject({ errorCode: 'transient', attempts: 1, errorMessage: 'the endpoint answered 503' })
  })

  it('bounds a forwarded MCP call that never answers by TOOLROOM_GATEWAY_MCP_TIMEOUT_MS, retries included', async () => {
    const { row } = await failedCall('slow.hang', 'mcp:hang')
    expect(hits.get('mcp:hang')).toBe(1)
    expect(row).toMatchObject({ errorCode: 'deadline_exceeded', attempts: 1 })
    expect(row.errorMessage).toContain(`deadline of ${BUDGET_MS} ms (TOOLROOM_GATEWAY_MCP_TIMEOUT_MS, retries included) was hit after 1 attempt`)
    expect(row.latencyMs!).toBeLessThan(BUDGET_MS * config().TOOLROOM_GATEWAY_MAX_ATTEMPTS)
  })

  it('holds an approved call, run by the worker through the same executors, to the same deadline', async () => {
    const held = await call(gatewayRoutes.callTool, '/api/v1/gateway/tools/slow.approved/call', {
      method: 'POST',
      body: { arguments: {}, waitForApprovalSeconds: 0 },
      params: { toolId: 'slow.approved' },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(held.json.result.structuredContent).toMatchObject({ status: 'approval_required' })
    const outcome = await runApprovedCall({ callId: held.json.callId, agentId, toolId: 'slow.approved' }, {}, null)
    expect(outcome).toMatchObject({ ok: false, answer: { error: { data: { attempts: 1 } } } })
    expect(outcome.error).toContain(`deadline of ${BUDGET_MS} ms (timeoutMs, retries included) was hit after 1 attempt`)
    await until('the approved attempt to end', () => ended.get('/drip-approved') === 1)
    expect(hits.get('/drip-approved')).toBe(1)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: held.json.callId } })).toMatchObject({ errorCode: 'deadline_exceeded', attempts: 1 })
  })

  it("states the budget rule in the explainer's trace", async () => {
    const explain = async (tool: string) => {
      const res = await call(explainRoutes.explain, `/api/v1/agents/${agentId}/explain`, {
        method: 'POST',
        body: { tool, arguments: {} },
        params: { id: agentId },
      })
      expect(res.status).toBe(200)
      return (res.json as Explanation).steps.find((s) => s.step === 'executor')!.detail
    }
    const attempts = config().TOOLROOM_GATEWAY_MAX_ATTEMPTS
    expect(await explain('slow.drip')).toBe(
      `the gateway calls its REST endpoint; one deadline of ${BUDGET_MS} ms (timeoutMs) for the whole call, retries and backoff included: ` +
        `up to ${attempts} attempts on transient failures, each given the time still left, and no retry starts with less than 150 ms left`,
    )
    expect(await explain('slow.write')).toContain(`one deadline of ${BUDGET_MS} ms (timeoutMs) for the whole call; one attempt, never retried`)
    expect(await explain('slow.hang')).toContain(
      `one deadline of ${BUDGET_MS} ms (TOOLROOM_GATEWAY_MCP_TIMEOUT_MS) for the whole call, retries and backoff included`,
    )
  })
})
