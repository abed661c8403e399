// MCP 2025-11-25 (and the earlier revisions SDK v1 negotiates) at /mcp: stateless streamable HTTP,
// JSON answers. Every message is checked against SDK v1's schemas first (mcp-messages.ts), then each
// request goes to one SDK v1 Server per process (through MultiplexTransport) that answers
// `initialize`, `tools/list`, `tools/call` (taken as checked: mcp-checked-call.ts), `ping`, and
// -32601 for every other method.
// A `tools/call` that asks for progress (`_meta.progressToken`) is answered as an event stream: its
// progress notifications, then the result. A GET with `Accept: text/event-stream` opens the agent's
// stream of `notifications/tools/list_changed` (tool-list-changes.ts).
import 'server-only'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { config } from '@/lib/config'
import type { McpAnswer } from './mcp-http-answer'
import { GATEWAY_INSTRUCTIONS, GATEWAY_SERVER_INFO, JSON_HEADERS, rpcError } from './mcp-http-answer'
import { handleCheckedToolCalls } from './mcp-checked-call'
import { type Checked, checkMessage } from './mcp-messages'
import { callToolFor, listToolsFor } from './mcp-tool-handlers'
import { MultiplexTransport, type RequestScope } from './mcp-transport'
import { SSE_HEADERS, SseStream } from '@/lib/http/sse-stream'
import { RPC } from './tool-errors'
import { watchToolList } from './tool-list-changes'
import { declaredUrlElicitation, rememberInitialize } from './url-elicitation'

const MAX_BATCH = 100

type Scope = { agent: AgentIdentity; requestId?: string } & RequestScope
const scopeOf = (authInfo: AuthInfo | undefined) => authInfo!.extra as unknown as Scope

const state = ((globalThis as { __toolroomMcp?: { transport: MultiplexTransport | null } }).__toolroomMcp ??= { transport: null })

/** The one SDK v1 Server of this process, behind its transport. */
export function mcpTransport(): MultiplexTransport {
  if (state.transport) return state.transport
  const t = new MultiplexTransport()
  const server = new Server(GATEWAY_SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: GATEWAY_INSTRUCTIONS })
  server.onerror = () => {}
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({ tools: await listToolsFor(scopeOf(extra.authInfo).agent) }))
  handleCheckedToolCalls(server, async (request, extra) => {
    const { agent, requestId, cancelled } = scopeOf(extra.authInfo)
    const token = request.params._meta?.progressToken
    return callToolFor(agent, request.params, {
      requestId,
      // Not combined with extra.signal: the Server aborts that only when its transport closes (client
      // notifications never reach it), which aborts `cancelled` too; AbortSignal.any cost ~2% of a call.
      signal: cancelled,
      urlElicitation: declaredUrlElicitation(agent),
      notifyProgress:
        token === undefined ? undefined : (report) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...report } }),
    })
  })
  void server.connect(t)
  state.transport = t
  return t
}

/** Answers a 2025-era POST: one message or a batch, already parsed. */
export async function answerLegacy(
  agent: AgentIdentity,
  parsed: unknown,
  options: { protocolVersion: string | null; requestId?: string; gone?: AbortSignal; acceptsStream: boolean },
): Promise<McpAnswer> {
  if (options.protocolVersion && !SUPPORTED_PROTOCOL_VERSIONS.includes(options.protocolVersion))
    return rpcError(
      400,
      RPC.INVALID_REQUEST,
      `unsupported MCP-Protocol-Version "${options.protocolVersion.slice(0, 40)}" (supported: 2026-07-28, ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    )
  const batch = Array.isArray(parsed)
  const messages = batch ? (parsed as unknown[]) : [parsed]
  if (messages.length === 0 || messages.length > MAX_BATCH)
    return rpcError(400, RPC.INVALID_REQUEST, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`)
  const checked = messages.map((m) => checkMessage('legacy', m))
  if (!batch && checked[0].kind === 'refused') return { status: checked[0].status, headers: JSON_HEADERS, body: JSON.stringify(checked[0].answer) }

  const authInfo: AuthInfo = { token: '', clientId: agent.agentId, scopes: [], extra: { agent, requestId: options.requestId } }
  const t = mcpTransport()
  const single = checked[0]
  if (!batch && single.kind === 'request' && options.acceptsStream && wantsProgress(single.message))
    return streamWithProgress(t, single.message, authInfo, agent, options.gone)

  const answers: Array<Promise<Record<string, unknown>>> = []
  for (const c of checked) {
    if (c.kind === 'refused') answers.push(Promise.resolve(c.answer))
    else if (c.kind === 'request') {
      if (c.message.method === 'initialize') rememberInitialize(agent, c.message.params)
      answers.push(t.request(c.message, authInfo, agent.credentialId, options.gone))
    } else if (c.kind === 'notification') notify(t, agent, c.message)
  }
  if (answers.length === 0) return { status: 202, headers: {}, body: '' }
  const results = await Promise.all(answers)
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(batch ? results : results[0]) }
}

const wantsProgress = (message: { method: string; params?: Record<string, unknown> }) =>
  message.method === 'tools/call' && (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken !== undefined

/** A `tools/call` that asked for progress: an event stream of its progress notifications, then its answer. */
function streamWithProgress(
  t: MultiplexTransport,
  message: Extract<Checked, { kind: 'request' }>['message'],
  authInfo: AuthInfo,
  agent: AgentIdentity,
  gone?: AbortSignal,
): McpAnswer {
  const stream = new SseStream()
  const left = gone ? AbortSignal.any([gone, stream.closed]) : stream.closed
  void t
    .request(message, authInfo, agent.credentialId, left, (notification) => stream.send(notification))
    .then((answer) => {
      stream.send(answer)
      stream.close()
    })
  return { status: 200, headers: SSE_HEADERS, body: stream.body }
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

/**
 * The 2025-era stream a client opens with GET: `notifications/tools/list_changed` whenever the
 * agent's tool list changes (any gateway process hears every registry change from PostgreSQL), and a
 * comment every 15 s. It ends when the client leaves.
 */
export function openListChangedStream(agent: AgentIdentity, gone?: AbortSignal): McpAnswer {
  const stream = new SseStream()
  const stop = watchToolList(agent.agentId, () => stream.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }))
  // A comment on the list_changed stream this often keeps idle connections (and proxies) open.
  const timer = setInterval(() => stream.keepAlive(), config().TOOLROOM_GATEWAY_SSE_KEEPALIVE_MS)
  timer.unref?.()
  const end = () => {
    clearInterval(timer)
    stop()
    stream.close()
  }
  stream.closed.addEventListener('abort', end, { once: true })
  gone?.addEventListener('abort', end, { once: true })
  return { status: 200, headers: SSE_HEADERS, body: stream.body }
}
