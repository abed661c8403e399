// The gateway's MCP endpoint (`/mcp`, streamable HTTP, stateless, JSON answers). It authenticates the
// agent, reads a bounded body, checks every message against the protocol's own schemas (the SDK's, of
// the revision it negotiates) and answers what fails them itself (-32700 unparseable, -32600 not a
// JSON-RPC 2.0 request, -32602 params that break the method's schema), then hands each request to one
// SDK Server (through MultiplexTransport) that answers `initialize`, `tools/list`, `tools/call`,
// `ping`, and -32601 for every other method.
// Stateless, so any gateway process serves any request. `handleMcpBody` is the core, used by the lean
// process directly; `handleMcpRequest` wraps it for web-standard Request/Response (Next.js).
import { readBounded } from '@/lib/http/read-bounded'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ClientNotificationSchema,
  InitializeRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  RequestIdSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod/v4'
import { type AgentIdentity, identifyAgentToken } from '@/lib/auth/authenticate-agent'
import { agentTools } from './agent-tools'
import { callTool } from './call-tool'
import { toMcpAnswer } from './mcp-answers'
import { MultiplexTransport, type RequestScope } from './mcp-transport'
import { RPC } from './tool-errors'

export const MAX_MCP_BODY_BYTES = Number(process.env.TOOLROOM_GATEWAY_MAX_BODY_BYTES ?? 1024 * 1024)
const MAX_BATCH = 100
const SERVER_INFO = { name: 'toolroom-gateway', version: '1.0.0' }
const INSTRUCTIONS =
  'Toolroom gateway: the tools listed are the ones this agent may call. Calls that need approval answer with status "approval_required" and a callId; ask toolroom.approval_status for the decision.'

export interface McpAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

const JSON_HEADERS = { 'content-type': 'application/json' }

function rpcError(status: number, code: number, message: string, extraHeaders: Record<string, string> = {}): McpAnswer {
  return { status, headers: { ...JSON_HEADERS, ...extraHeaders }, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }) }
}

export const tooLarge = () => rpcError(413, RPC.INVALID_REQUEST, `the request body is larger than ${MAX_MCP_BODY_BYTES} bytes`, { connection: 'close' })
export const notPost = () =>
  rpcError(405, RPC.INVALID_REQUEST, 'this gateway is stateless: send JSON-RPC with POST (no server-initiated stream, no session to delete)', { allow: 'POST' })

// The requests the Server answers, each with the schema of the protocol revision it speaks: a
// message is checked against these before it reaches the Server, so every request is answered with
// the right error object (the SDK would answer a bad `initialize` with -32603 and a raw zod dump, and
// some malformed requests not at all).
const HANDLED = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const

const state = ((globalThis as { __toolroomMcp?: { transport: MultiplexTransport | null } }).__toolroomMcp ??= { transport: null })

/** A refusal with the reason kept apart from the message, so the SDK sends code, message and data as they are. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export function mcpTransport(): MultiplexTransport {
  if (state.transport) return state.transport
  const t = new MultiplexTransport()
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS })
  server.onerror = () => {}
  server.setRequestHandler(HANDLED['tools/list'], async (_request, extra) => {
    const { agent } = scopeOf(extra.authInfo)
    return { tools: (await agentTools(agent.agentId))?.list ?? [] }
  })
  server.setRequestHandler(HANDLED['tools/call'], async (request, extra) => {
    const { agent, requestId, cancelled } = scopeOf(extra.authInfo)
    const meta = request.params._meta as Record<string, unknown> | undefined
    const key = typeof meta?.idempotencyKey === 'string' ? meta.idempotencyKey : undefined
    const wait = meta?.['toolroom/waitForApprovalSeconds']
    const waitForApprovalMs = typeof wait === 'number' && wait >= 0 ? wait * 1000 : undefined
    const signal = AbortSignal.any([extra.signal, cancelled])
    const answer = await callTool({ agent, channel: 'mcp', requestId, signal, waitForApprovalMs }, request.params.name, request.params.arguments ?? {}, key)
    const mcp = toMcpAnswer(answer)
    if ('error' in mcp) throw new Refusal(mcp.error.code, mcp.error.message, mcp.error.data)
    return mcp.result
  })
  void server.connect(t)
  state.transport = t
  return t
}

type Scope = { agent: AgentIdentity; requestId?: string } & RequestScope
const scopeOf = (authInfo: AuthInfo | undefined) => authInfo!.extra as unknown as Scope

type Message = Record<string, unknown>
type Checked =
  | { kind: 'request'; message: { id: string | number; method: string; params?: Record<string, unknown> } }
  | { kind: 'notification'; message: { method: string; params?: Record<string, unknown> } }
  | { kind: 'response' }
  | { kind: 'refused'; answer: Record<string, unknown>; status: number }

const MAX_ISSUES = 10

/** The schema's complaints, readable: "params._meta.progressToken: Invalid input; …" */
function issuesOf(error: z.ZodError): { text: string; issues: Array<{ path: string; message: string }> } {
  const issues = error.issues.slice(0, MAX_ISSUES).map((i) => ({ path: i.path.map(String).join('.') || '(message)', message: i.message }))
  return { text: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues }
}

const refused = (id: unknown, code: number, message: string, data?: unknown, status = code === RPC.INVALID_REQUEST ? 400 : 200): Checked => ({
  kind: 'refused',
  status,
  answer: { jsonrpc: '2.0', id: RequestIdSchema.safeParse(id).success ? id : null, error: { code, message, ...(data !== undefined ? { data } : {}) } },
})

/**
 * Checks one message against the protocol's schemas (JSON-RPC 2.0 as MCP restricts it, then the
 * method's own request or notification schema): a request that is none is answered -32600, one whose
 * params break its method's schema -32602, naming each violation.
 */
function check(m: unknown): Checked {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return refused(null, RPC.INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object')
  const msg = m as Message
  if (typeof msg.method === 'string' && 'id' in msg) {
    const envelope = JSONRPCRequestSchema.safeParse(msg)
    if (!envelope.success) {
      const { text, issues } = issuesOf(envelope.error)
      // JSON-RPC allows structured params; MCP wants an object whose fields follow the schema: that is the params' fault.
      const ofParams = typeof msg.params === 'object' && msg.params !== null && envelope.error.issues.every((i) => i.path[0] === 'params')
      return ofParams ? refused(msg.id, RPC.INVALID_PARAMS, `Invalid params: ${text}`, { issues }) : refused(msg.id, RPC.INVALID_REQUEST, `Invalid Request: ${text}`, { issues })
    }
    const schema = HANDLED[msg.method as keyof typeof HANDLED]
    if (schema) {
      const parsed = schema.safeParse(msg)
      if (!parsed.success) return refused(msg.id, RPC.INVALID_PARAMS, `Invalid params for ${msg.method}: ${issuesOf(parsed.error).text}`, { issues: issuesOf(parsed.error).issues })
    }
    if (msg.method === 'tools/call') {
      const params = msg.params as { name: string; task?: unknown }
      if (params.name.length === 0) return refused(msg.id, RPC.INVALID_PARAMS, 'Invalid params for tools/call: params.name must name the tool to call')
      // This gateway declares no task support, so task augmentation is ignored and the call runs as usual.
      if (params.task !== undefined) {
        const { task: _ignored, ...rest } = params
        return { kind: 'request', message: { id: envelope.data.id, method: envelope.data.method, params: rest } }
      }
    }
    return { kind: 'request', message: envelope.data as { id: string | number; method: string; params?: Record<string, unknown> } }
  }
  if (typeof msg.method === 'string') {
    const envelope = JSONRPCNotificationSchema.safeParse(msg)
    const known = envelope.success && ClientNotificationSchema.options.some((o) => o.shape.method.value === msg.method)
    const parsed = known ? ClientNotificationSchema.safeParse(msg) : envelope
    if (!parsed.success) return refused(null, RPC.INVALID_REQUEST, `Invalid notification: ${issuesOf(parsed.error).text}`, { issues: issuesOf(parsed.error).issues }, 400)
    return { kind: 'notification', message: parsed.data as { method: string; params?: Record<string, unknown> } }
  }
  if ('result' in msg || 'error' in msg) {
    if (JSONRPCResultResponseSchema.safeParse(msg).success || JSONRPCErrorResponseSchema.safeParse(msg).success) return { kind: 'response' }
    return refused(null, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 response')
  }
  return refused(msg.id, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", a "method" string, an "id" string or integer, "params" an object)')
}

/** Answers one POST to /mcp: `authorization` and `protocolVersion` are the request's headers, `body` its text; `gone` aborts when the caller disconnects. */
export async function handleMcpBody(authorization: string | null, protocolVersion: string | null, body: string, requestId?: string, gone?: AbortSignal): Promise<McpAnswer> {
  const token = /^Bearer\s+(tra_\S{1,500})\s*$/i.exec(authorization ?? '')?.[1]
  const agent = token ? await identifyAgentToken(token) : null
  if (!agent)
    return rpcError(401, RPC.INVALID_REQUEST, 'send an agent credential: Authorization: Bearer tra_… (POST /api/v1/agents/{id}/credentials)', {
      'www-authenticate': 'Bearer realm="toolroom-gateway"',
    })
  if (protocolVersion && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
    return rpcError(400, RPC.INVALID_REQUEST, `unsupported MCP-Protocol-Version "${protocolVersion.slice(0, 40)}" (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)

  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch (e) {
    return rpcError(400, RPC.PARSE_ERROR, `Parse error: ${(e as Error).message}`)
  }
  const batch = Array.isArray(parsed)
  const messages = batch ? (parsed as unknown[]) : [parsed]
  if (messages.length === 0 || messages.length > MAX_BATCH) return rpcError(400, RPC.INVALID_REQUEST, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`)
  const checked = messages.map(check)
  if (!batch && checked[0].kind === 'refused') return { status: checked[0].status, headers: JSON_HEADERS, body: JSON.stringify(checked[0].answer) }

  const authInfo: AuthInfo = { token: '', clientId: agent.agentId, scopes: [], extra: { agent, requestId } }
  const t = mcpTransport()
  const answers: Array<Promise<Record<string, unknown>>> = []
  for (const c of checked) {
    if (c.kind === 'refused') answers.push(Promise.resolve(c.answer))
    else if (c.kind === 'request') answers.push(t.request(c.message, authInfo, agent.credentialId, gone))
    else if (c.kind === 'notification') notify(t, agent, c.message)
  }
  if (answers.length === 0) return { status: 202, headers: {}, body: '' }
  const results = await Promise.all(answers)
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(batch ? results : results[0]) }
}

/**
 * Client notifications never reach the shared Server: in this stateless gateway only a cancellation
 * means anything, and it names the sender's own request (an id another agent's request may share).
 */
function notify(t: MultiplexTransport, agent: AgentIdentity, message: { method: string; params?: Record<string, unknown> }) {
  if (message.method !== 'notifications/cancelled') return
  const { requestId, reason } = message.params as { requestId?: string | number; reason?: string }
  if (requestId !== undefined) t.cancel(agent.credentialId, requestId, reason)
}

/** Web-standard wrapper (Next.js route). */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const answer = request.method !== 'POST' ? notPost() : await readAndHandle(request)
  return new Response(answer.body || null, { status: answer.status, headers: answer.headers })
}

async function readAndHandle(request: Request): Promise<McpAnswer> {
  const text = await readBounded(request, MAX_MCP_BODY_BYTES)
  if (text === null) return tooLarge()
  return handleMcpBody(request.headers.get('authorization'), request.headers.get('mcp-protocol-version'), text, request.headers.get('x-request-id') ?? undefined, request.signal)
}
