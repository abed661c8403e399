// The gateway's MCP endpoint (`/mcp`, streamable HTTP, stateless, JSON answers). It authenticates the
// agent, reads a bounded body, answers JSON-RPC that is broken before it reaches the SDK with the
// right error object (-32700 unparseable, -32600 not a JSON-RPC 2.0 message), and hands every message
// to one SDK Server (through MultiplexTransport) that answers `initialize`, `tools/list`,
// `tools/call`, `ping` and everything else (-32601 for unknown methods, -32602 for bad params).
// Stateless, so any gateway process serves any request. `handleMcpBody` is the core, used by the lean
// process directly; `handleMcpRequest` wraps it for web-standard Request/Response (Next.js).
import { readBounded } from '@/lib/http/read-bounded'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { type AgentIdentity, identifyAgentToken } from '@/lib/auth/authenticate-agent'
import { agentTools } from './agent-tools'
import { callTool } from './call-tool'
import { MultiplexTransport } from './mcp-transport'
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

const state = ((globalThis as { __toolroomMcp?: { transport: MultiplexTransport | null } }).__toolroomMcp ??= { transport: null })

function transport(): MultiplexTransport {
  if (state.transport) return state.transport
  const t = new MultiplexTransport()
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS })
  server.onerror = () => {}
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const agent = agentOf(extra.authInfo)
    return { tools: (await agentTools(agent.agentId))?.list ?? [] }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { agent, requestId } = extra.authInfo!.extra as { agent: AgentIdentity; requestId?: string }
    const meta = request.params._meta as Record<string, unknown> | undefined
    const key = typeof meta?.idempotencyKey === 'string' ? meta.idempotencyKey : undefined
    const wait = meta?.['toolroom/waitForApprovalSeconds']
    const waitForApprovalMs = typeof wait === 'number' && wait >= 0 ? wait * 1000 : undefined
    const answer = await callTool({ agent, channel: 'mcp', requestId, signal: extra.signal, waitForApprovalMs }, request.params.name, request.params.arguments ?? {}, key)
    if ('error' in answer) throw new McpError(answer.error.code, answer.error.message, answer.error.data)
    return answer.result
  })
  void server.connect(t)
  state.transport = t
  return t
}

const agentOf = (authInfo: AuthInfo | undefined) => (authInfo!.extra as { agent: AgentIdentity }).agent

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

/** Which kind of JSON-RPC 2.0 message `m` is, or null when it is none. */
function kindOf(m: unknown): 'request' | 'notification' | 'response' | null {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return null
  const msg = m as Message
  if (msg.jsonrpc !== '2.0') return null
  if (msg.params !== undefined && (typeof msg.params !== 'object' || msg.params === null)) return null
  const hasId = 'id' in msg
  if (hasId && typeof msg.id !== 'string' && !(typeof msg.id === 'number' && Number.isFinite(msg.id))) return null
  if (typeof msg.method === 'string') return hasId ? 'request' : 'notification'
  if (hasId && ('result' in msg || 'error' in msg)) return 'response'
  return null
}

const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The SDK answers a tools/call whose params do not parse as an internal error; the protocol says -32602. */
function invalidParams(msg: { method: string; params?: unknown }): string | null {
  if (msg.method !== 'tools/call') return null
  const params = msg.params as { name?: unknown; arguments?: unknown } | undefined
  if (!params || typeof params.name !== 'string' || params.name.length === 0) return 'Invalid params: tools/call needs params.name, the tool to call'
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return 'Invalid params: params.arguments must be an object'
  return null
}

/** Answers one POST to /mcp: `authorization` and `protocolVersion` are the request's headers, `body` its text. */
export async function handleMcpBody(authorization: string | null, protocolVersion: string | null, body: string, requestId?: string): Promise<McpAnswer> {
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
  const kinds = messages.map(kindOf)
  if (kinds.includes(null))
    return rpcError(400, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", a "method" string, an "id" string or number, "params" an object)')

  const authInfo: AuthInfo = { token: '', clientId: agent.agentId, scopes: [], extra: { agent, requestId } }
  const t = transport()
  const answers: Array<Promise<Record<string, unknown>>> = []
  messages.forEach((m, i) => {
    const msg = m as { id: string | number; method: string; params?: unknown }
    const invalid = kinds[i] === 'request' ? invalidParams(msg) : null
    if (invalid) answers.push(Promise.resolve({ jsonrpc: '2.0', id: msg.id, error: { code: RPC.INVALID_PARAMS, message: invalid } }))
    else if (kinds[i] === 'request') answers.push(t.request(msg, authInfo))
    else if (kinds[i] === 'notification') t.notify(msg, authInfo)
  })
  if (answers.length === 0) return { status: 202, headers: {}, body: '' }
  const results = await Promise.all(answers)
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(batch ? results : results[0]) }
}

/** Web-standard wrapper (Next.js route). */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const answer = request.method !== 'POST' ? notPost() : await readAndHandle(request)
  return new Response(answer.body || null, { status: answer.status, headers: answer.headers })
}

async function readAndHandle(request: Request): Promise<McpAnswer> {
  const text = await readBounded(request, MAX_MCP_BODY_BYTES)
  if (text === null) return tooLarge()
  return handleMcpBody(request.headers.get('authorization'), request.headers.get('mcp-protocol-version'), text, request.headers.get('x-request-id') ?? undefined)
}
