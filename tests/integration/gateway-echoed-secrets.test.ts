// Upstreams that echo the credential the gateway injected, in every way an honest-but-careless
// server does (a header dump in a result, in an error status body, base64- and URL-encoded, as SSE;
// an MCP server quoting its auth header in a result, an isError result, a JSON-RPC error and its
// progress): the agent gets the answer with the secret scrubbed, over MCP (both protocol
// revisions), over the REST call endpoint, and as an approved call's result. Real PostgreSQL, a real
// gateway, real upstreams of the test's own.
import type http from 'node:http'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client as ModernClient } from '@modelcontextprotocol/client'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { executeApprovedCall, openApprovedAnswer } from '@/lib/approvals/execute-approved-call'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { isSafeToRepeat, runApprovedCall } from '@/lib/gateway/call-tool'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { updateCallOutcome } from '@/lib/gateway/record-call'
import { createGatewayServer } from '@/lib/gateway/server'
import { agentClient, modernAgentClient } from '../support/gateway-fixtures'
import { type Listening, listen, listenOn } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'

// Characters that JSON, URLs and the two base64 alphabets each encode differently.
// The approved call runs here at once: no undo window.
process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
reloadConfig()

const BEARER = 'sk-live-ECHO/bearer+"q"-7f3a9c1d'
const PASSWORD = 'pa55/word+"ECHO"-3c9e1b'
const BASIC = `svc-robot:${PASSWORD}`
const MCP_KEY = 'mcp-KEY/echo+"x"-5d2b9a77'
// Sent as a whole header value with its scheme; the server echoes the token it parsed out of it.
const MCP_TOKEN = 'mcp-TOKEN-parsed-1e8f4c2b'
const SECRETS = [BEARER, PASSWORD, MCP_KEY, MCP_TOKEN]

let rest: Listening
let mcp: Listening
let gateway: Listening
let token: string
let legacyClient: Client
let modernClient: ModernClient

/** Whether `text` gives `secret` away: as is, JSON-escaped, URL-encoded, or inside any base64 run (either alphabet, any alignment). */
function reveals(text: string, secret: string): boolean {
  const readings = [text]
  // JSON-escaped, and JSON quoted in JSON: unescaped level by level.
  for (let level = 0, t = text; level < 4; level++) readings.push((t = t.replace(/\\(.)/g, '$1')))
  for (const encoded of text.match(/(?:%[0-9A-Fa-f]{2}|[^%\s"])+/g) ?? []) {
    try {
      readings.push(decodeURIComponent(encoded.replace(/\+/g, ' ')), decodeURIComponent(encoded))
    } catch {
      // not URL-encoded
    }
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? [])
    for (let skip = 0; skip < 4; skip++) {
      const decoded = Buffer.from(run.slice(skip), 'base64').toString('latin1')
      readings.push(decoded, decoded.replace(/\\(.)/g, '$1'))
    }
  return readings.some((r) => r.includes(secret))
}

/** Which answers give a secret away, named: every path is checked before the test fails, so the failure lists them all. */
function leaksIn(answer: string, what: string): string[] {
  return SECRETS.filter((secret) => reveals(answer, secret)).map((secret) => `${what} gives away ${secret}`)
}

function expectNoSecret(answer: string, what: string) {
  expect(leaksIn(answer, what), answer.slice(0, 2000)).toEqual([])
}

/** Answers with the request's headers: as JSON, in an error status, encoded, or as server-sent events. */
function echoingRest(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  const headers = { ...req.headers }
  const auth = req.headers.authorization ?? ''
  const basic = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : null
  const dump = JSON.stringify({ headers, ...(basic ? { login: basic, password: basic.slice(basic.indexOf(':') + 1) } : {}) })
  const json = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body)
  if (path === '/headers') return json(200, dump)
  if (path === '/refused') return json(403, JSON.stringify({ error: 'you sent', dump }))
  if (path === '/busy') return json(503, dump)
  if (path === '/encoded') {
    const lines = [
      Buffer.from(dump).toString('base64'),
      Buffer.from(`x${dump}`).toString('base64url'),
      Buffer.from(`xy${auth}`).toString('base64'),
      encodeURIComponent(auth),
      new URLSearchParams({ auth }).toString(),
      JSON.stringify({ auth }).replace(/\//g, '\\/'),
    ]
    return res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\n'))
  }
  if (path === '/sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(`event: headers\ndata: ${dump}\n\n`)
    return res.end(`data: ${JSON.stringify({ authorization: auth })}\n\n`)
  }
  res.writeHead(404).end()
}

function echoingMcpServer(): Server {
  const server = new Server({ name: 'echoing', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const headers = extra.requestInfo?.headers ?? {}
    const key = `${String(headers['x-upstream-key'] ?? 'none')} (token ${String(headers.authorization ?? '').replace(/^Bearer /, '')})`
    const name = request.params.name
    if (name === 'refuse')
      throw new McpError(ErrorCode.InvalidRequest, `key ${key} is not allowed here`, { keySeen: key, encoded: Buffer.from(key).toString('base64') })
    if (name === 'shout') return { isError: true, content: [{ type: 'text', text: `I cannot do that with key ${key}` }] }
    const progressToken = request.params._meta?.progressToken
    if (progressToken !== undefined)
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2, message: `working with ${key}` } })
    return { content: [{ type: 'text', text: `your key is ${key}` }], structuredContent: { key, headers } }
  })
  return server
}

const restTool = (name: string, path: string, auth: string, secret: string, level = 'read_only') => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: scrub }
spec:
  type: rest
  description: ${name}
  endpoint: { method: GET, url: "${rest.url}${path}", auth: { type: ${auth}, secretRef: { name: ${secret} } } }
  inputSchema: { type: object }
  sideEffects: { level: ${level} }
`
const mcpTool = (name: string, server: string, tool: string) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: scrub }
spec:
  type: mcp
  description: ${name}
  mcpServerRef: { name: ${server}, tool: ${tool} }
  inputSchema: { type: object }
  sideEffects: { level: read_only }
`
// echo.busy's 503 body is kept in the call record only (its answer says "the endpoint answered 503").
const REST_TOOLS = ['echo.headers', 'echo.basic', 'echo.refused', 'echo.busy', 'echo.encoded', 'echo.sse']
const MCP_TOOLS = ['mcp.result', 'mcp.sse_result', 'mcp.is_error', 'mcp.refuse']

const manifest = () => `
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: bearer-token, namespace: scrub }
spec: { type: bearer, stringData: { token: ${JSON.stringify(BEARER)} } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: basic-login, namespace: scrub }
spec: { type: basic, stringData: { login: ${JSON.stringify(BASIC)} } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: mcp-key, namespace: scrub }
spec: { stringData: { key: ${JSON.stringify(MCP_KEY)} } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: mcp-authorization, namespace: scrub }
spec: { stringData: { value: "Bearer ${MCP_TOKEN}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: short-token, namespace: scrub }
spec: { type: bearer, stringData: { token: "abc1234" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: financial, namespace: scrub }
spec: { level: financial, requiresApproval: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: echoing, namespace: scrub }
spec:
  endpoint: "${mcp.url}/json"
  authHeaders: [{ name: x-upstream-key, secretRef: { name: mcp-key } }, { name: authorization, secretRef: { name: mcp-authorization } }]
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: echoing-sse, namespace: scrub }
spec:
  endpoint: "${mcp.url}/sse"
  authHeaders: [{ name: x-upstream-key, secretRef: { name: mcp-key } }, { name: authorization, secretRef: { name: mcp-authorization } }]
${restTool('echo.headers', '/headers', 'bearer', 'bearer-token')}${restTool('echo.basic', '/headers', 'basic', 'basic-login')}${restTool(
  'echo.refused',
  '/refused',
  'bearer',
  'bearer-token',
)}${restTool('echo.busy', '/busy', 'bearer', 'bearer-token')}${restTool('echo.encoded', '/encoded', 'bearer', 'bearer-token')}${restTool(
  'echo.sse',
  '/sse',
  'bearer',
  'bearer-token',
)}${restTool('echo.approved', '/headers', 'bearer', 'bearer-token', 'financial')}${restTool('echo.short', '/headers', 'bearer', 'short-token')}${mcpTool(
  'mcp.result',
  'echoing',
  'echo',
)}${mcpTool('mcp.sse_result', 'echoing-sse', 'echo')}${mcpTool('mcp.is_error', 'echoing', 'shout')}${mcpTool('mcp.refuse', 'echoing', 'refuse')}---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: scrub }
spec:
  grants: [${[...REST_TOOLS, ...MCP_TOOLS, 'echo.approved', 'echo.short'].join(', ')}]
`

const restCall = (toolId: string, body: Record<string, unknown> = {}) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: { arguments: {}, ...body },
    params: { toolId },
    headers: { authorization: `Bearer ${token}` },
  })

type McpCaller = (name: string, onprogress: (p: { message?: string }) => void) => Promise<unknown>

/** Everything an SDK client hands its caller for one call: the result, or the error's message and data; and the progress messages. */
async function overMcp(callTool: McpCaller, name: string): Promise<{ answer: string; progress: string[] }> {
  const progress: string[] = []
  try {
    const result = await callTool(name, (p) => void progress.push(p.message ?? ''))
    return { answer: JSON.stringify(result), progress }
  } catch (e) {
    const err = e as Error & { code?: unknown; data?: unknown }
    return { answer: JSON.stringify({ message: err.message, code: err.code, data: err.data }), progress }
  }
}

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "ToolCall", "AgentCredential", "GatewayRateCounter", "GatewayIdempotency", "ApprovalRequest"')
  rest = await listen(echoingRest)
  mcp = await listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(echoingMcpServer, req, res, { json: !req.url?.startsWith('/sse') })
  })
  await applyManifest(manifest())
  const agentId = (await prisma.agent.findFirstOrThrow({ where: { name: 'caller', namespace: 'scrub' } })).id
  token = await issueAgentCredential(agentId, 'scrub')
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  legacyClient = await agentClient(gateway.url, token)
  modernClient = await modernAgentClient(gateway.url, token)
})

afterAll(async () => {
  await legacyClient?.close()
  await modernClient?.close()
  await closeMcpSessions()
  await gateway?.close()
  await rest?.close()
  await mcp?.close()
})

describe('what an upstream echoes of an injected secret', () => {
  it('never reaches the agent over the REST call endpoint, whichever way it was echoed', async () => {
    const leaks: string[] = []
    for (const tool of [...REST_TOOLS, ...MCP_TOOLS]) {
      const res = await restCall(tool)
      leaks.push(...leaksIn(res.text, `${tool} over REST`))
      if (tool !== 'echo.busy') expect(res.text, tool).toContain('[REDACTED]')
    }
    expect(leaks).toEqual([])
    // The answer stays useful: only the secret is gone.
    const headers = await restCall('echo.headers')
    expect(headers.status).toBe(200)
    expect(headers.json.result.structuredContent.headers).toMatchObject({ authorization: 'Bearer [REDACTED]', accept: 'application/json' })
    const basic = await restCall('echo.basic')
    expect(basic.json.result.structuredContent).toMatchObject({ login: '[REDACTED]', password: '[REDACTED]' })
  })

  it('never reaches the agent over MCP, under either protocol revision, progress reports included', async () => {
    const revisions: Array<[string, McpCaller]> = [
      ['2025-11-25', (name, onprogress) => legacyClient.callTool({ name, arguments: {} }, CallToolResultSchema, { onprogress })],
      ['2026-07-28', (name, onprogress) => modernClient.callTool({ name, arguments: {} }, { onprogress })],
    ]
    const leaks: string[] = []
    for (const [revision, callTool] of revisions) {
      for (const tool of [...REST_TOOLS, ...MCP_TOOLS]) {
        const { answer, progress } = await overMcp(callTool, tool)
        leaks.push(...leaksIn(answer, `${tool} over MCP ${revision}`), ...leaksIn(progress.join('\n'), `${tool}'s progress over MCP ${revision}`))
        if (tool !== 'echo.busy') expect(answer, `${tool} over MCP ${revision}`).toContain('[REDACTED]')
        if (tool === 'mcp.sse_result') expect(progress, revision).toEqual(['working with [REDACTED] (token [REDACTED])'])
      }
    }
    expect(leaks).toEqual([])
  })

  it('is scrubbed before an approved call keeps its answer for the agent', async () => {
    const asked = await restCall('echo.approved', { idempotencyKey: 'approved-1', waitForApprovalSeconds: 0 })
    expect(asked.json.result.structuredContent).toMatchObject({ status: 'approval_required' })
    const callId = asked.json.callId as string
    const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId } })
    expect((await call(approveApi.POST, `/api/v1/approvals/${approval.id}/approve`, { method: 'POST', params: { id: approval.id }, body: {} })).status).toBe(
      200,
    )
    // What the worker runs (workers/jobs/execute-approved-call.ts), here in this process.
    const ran = await executeApprovedCall(approval.id, 1, {
      run: (a, args, key) => runApprovedCall(a, (args ?? {}) as Record<string, unknown>, key),
      safeToRepeat: (a) => isSafeToRepeat(a),
      abandon: (a, reason) =>
        updateCallOutcome(a.callId, { outcome: 'failed', errorCode: 'interrupted', errorMessage: reason, latencyMs: null, attempts: 1, result: null }),
    })
    expect(ran).toBe('executed')
    const kept = openApprovedAnswer(await prisma.approvalRequest.findUniqueOrThrow({ where: { callId } }))
    expectNoSecret(JSON.stringify(kept), 'the sealed answer of the approved call')
    const repeat = await restCall('echo.approved', { idempotencyKey: 'approved-1' })
    expect(repeat.json.result.structuredContent.headers).toMatchObject({ authorization: 'Bearer [REDACTED]' })
    expectNoSecret(repeat.text, 'the approved call replayed over REST')
    const status = await restCall('toolroom.approval_status', { arguments: { callId } })
    expect(status.status, status.text).toBe(200)
    expectNoSecret(status.text, 'approval_status')
  })

  it('refuses to inject a secret too short to be scrubbed, and sends nothing', async () => {
    const res = await restCall('echo.short')
    expect(res.status).toBe(502)
    expect(res.json.data).toMatchObject({ outcome: 'failed' })
    expect(res.json.detail).toMatch(/Secret "short-token".* 7 characters long; .* at least 8/)
    expect(res.text).not.toContain('abc1234')
    const row = await prisma.toolCall.findFirstOrThrow({ where: { id: res.json.callId } })
    expect(row).toMatchObject({ outcome: 'failed', errorCode: 'secret_too_short' })
  })
})
