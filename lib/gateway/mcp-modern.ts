// MCP 2026-07-28 at /mcp, on SDK v2 (@modelcontextprotocol/server): no handshake, no session, the
// protocol version and client capabilities in every request's `_meta`, `server/discover`,
// `subscriptions/listen` for change notifications, `resultType` and cache hints on results. The SDK's
// createMcpHandler runs the revision's validation ladder (envelope, unsupported versions, mirrored
// headers, required client capabilities) and serves each request from a fresh low-level Server whose
// handlers are the same as the 2025-11-25 layer's (mcp-tool-handlers.ts).
//
// One handler per agent: `subscriptions/listen` streams subscribe to their handler's event bus, so a
// change to one agent's tool list is published to that agent's streams only (tool-list-changes.ts
// hears every registry change from PostgreSQL, in every gateway process).
import 'server-only'
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  InMemoryServerEventBus,
  type McpHttpHandler,
  type ListToolsResult,
  type McpRequestContext,
  Server,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server'
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { config } from '@/lib/config'
import { GATEWAY_INSTRUCTIONS, GATEWAY_SERVER_INFO, JSON_HEADERS, maxMcpBodyBytes, type McpAnswer } from './mcp-http-answer'
import { checkMessage } from './mcp-messages'
import { callToolFor, listToolsFor } from './mcp-tool-handlers'
import { RPC } from './tool-errors'
import { watchToolList } from './tool-list-changes'
import { takesUrlElicitation } from './url-elicitation'

/** Open `subscriptions/listen` streams per agent and process; one more is refused in-band. */
const MAX_SUBSCRIPTIONS_PER_AGENT = 16
/** An agent's handler with no open stream is dropped after this long unused. */
const IDLE_MS = 10 * 60_000

/**
 * Under 2026-07-28 the server-error range -32020…-32099 is the specification's own and -32000…-32019
 * is for earlier implementations only (basic/index, "Error Codes"), so the gateway's two refusals of
 * its own move outside the JSON-RPC range: rate limited -31029, still in progress -31009.
 */
export const MODERN_ERROR_CODES: Record<number, number> = { [RPC.RATE_LIMITED]: -31029, [RPC.IN_PROGRESS]: -31009 }
const modernCode = (code: number) => MODERN_ERROR_CODES[code] ?? code

interface Extra {
  agent: AgentIdentity
  requestId?: string
}

function buildServer(ctx: McpRequestContext): Server {
  const { agent, requestId } = ctx.authInfo!.extra as unknown as Extra
  const server = new Server(GATEWAY_SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: GATEWAY_INSTRUCTIONS })
  // `ttlMs`: how long a client may keep the answer; subscribed clients hear of changes at once.
  server.setRequestHandler('tools/list', async () => ({
    tools: (await listToolsFor(agent)) as unknown as ListToolsResult['tools'],
    ttlMs: config().TOOLROOM_GATEWAY_TOOLS_TTL_MS,
    cacheScope: 'private' as const,
  }))
  server.setRequestHandler('tools/call', async (request, c) => {
    const token = request.params._meta?.progressToken
    return callToolFor(agent, request.params, {
      requestId,
      signal: c.mcpReq.signal,
      notifyProgress:
        token === undefined ? undefined : (report) => c.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...report } }),
      errorCode: modernCode,
      urlElicitation: takesUrlElicitation(request.params._meta?.[CLIENT_CAPABILITIES_META_KEY]),
    })
  })
  return server
}

/** An agent's event bus: the first open stream starts watching its tool list, the last one to close stops. */
class AgentEventBus implements ServerEventBus {
  private readonly inner = new InMemoryServerEventBus()
  private listeners = 0
  private stopWatching: (() => void) | null = null

  constructor(private readonly agentId: string) {}

  get open(): number {
    return this.listeners
  }

  publish(event: ServerEvent): void {
    this.inner.publish(event)
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const unsubscribe = this.inner.subscribe(listener)
    if (++this.listeners === 1) this.stopWatching = watchToolList(this.agentId, () => this.publish({ kind: 'tools_list_changed' }))
    let done = false
    return () => {
      if (done) return
      done = true
      unsubscribe()
      if (--this.listeners === 0) {
        this.stopWatching?.()
        this.stopWatching = null
      }
    }
  }
}

interface AgentHandler {
  handler: McpHttpHandler
  bus: AgentEventBus
  usedAt: number
}

const state = ((globalThis as { __toolroomMcpModern?: { handlers: Map<string, AgentHandler> } }).__toolroomMcpModern ??= { handlers: new Map() })

function handlerFor(agentId: string): AgentHandler {
  const now = Date.now()
  let entry = state.handlers.get(agentId)
  if (!entry) {
    for (const [id, other] of state.handlers) if (other.bus.open === 0 && now - other.usedAt > IDLE_MS) state.handlers.delete(id)
    const bus = new AgentEventBus(agentId)
    const handler = createMcpHandler(buildServer, {
      legacy: 'reject',
      bus,
      maxSubscriptions: MAX_SUBSCRIPTIONS_PER_AGENT,
      keepAliveMs: config().TOOLROOM_GATEWAY_SSE_KEEPALIVE_MS,
      maxRequestBodySize: maxMcpBodyBytes(),
      onerror: () => {},
    })
    entry = { handler, bus, usedAt: now }
    state.handlers.set(agentId, entry)
  }
  entry.usedAt = now
  return entry
}

/** Headers the SDK reads from a 2026-07-28 request: content negotiation and the mirrored request fields. */
const FORWARDED = /^(content-type|accept|mcp-protocol-version|mcp-method|mcp-name|mcp-param-.+)$/i

export interface ModernRequest {
  agent: AgentIdentity
  parsed: unknown
  /** The request's headers, by lower-case name. */
  headers: Iterable<[string, string]>
  requestId?: string
  /** Aborts when the client left: under this revision, closing the stream cancels the request. */
  gone?: AbortSignal
}

/** Answers a POST the revision's rules route to 2026-07-28 (or to its validation ladder's refusals). */
export async function answerModern(req: ModernRequest): Promise<McpAnswer> {
  const message = req.parsed as { id?: unknown; method?: unknown }
  // The SDK reports params that break the method's schema as a zod dump; checked here first, the answer names each violation.
  if (typeof message === 'object' && message !== null && !Array.isArray(message) && typeof message.method === 'string' && 'id' in message) {
    const checked = checkMessage('modern', message)
    if (checked.kind === 'refused') return { status: checked.status, headers: JSON_HEADERS, body: JSON.stringify(checked.answer) }
  }
  const headers = new Headers()
  for (const [name, value] of req.headers) if (FORWARDED.test(name)) headers.set(name, value)
  const request = new Request('http://gateway.invalid/mcp', { method: 'POST', headers, ...(req.gone ? { signal: req.gone } : {}) })
  const { handler } = handlerFor(req.agent.agentId)
  const response = await handler.fetch(request, {
    parsedBody: req.parsed,
    authInfo: { token: '', clientId: req.agent.agentId, scopes: [], extra: { agent: req.agent, requestId: req.requestId } },
  })
  const answerHeaders: Record<string, string> = {}
  response.headers.forEach((value, name) => (answerHeaders[name] = value))
  return { status: response.status, headers: answerHeaders, body: response.body ?? '' }
}
