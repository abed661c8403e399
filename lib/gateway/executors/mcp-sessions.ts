// Sessions with upstream MCP servers over the transport discovery reached each one by: streamable
// HTTP and SSE through SDK v1's client transports, streamable HTTP of MCP 2026-07-28 through SDK v2's
// client (no session there: the "session" is a connected client, each call its own request), plain
// JSON-RPC POSTs (servers whose answers only a lenient reader takes) by hand. Every request goes through the gateway's guarded fetch. Failures
// come out in the shapes the MCP executor classifies: McpError (a JSON-RPC error, or the SDK's own
// timeout), StreamableHTTPError (an HTTP status), OutboundError (unreachable or refused), ToolFailure.
import 'server-only'
import {
  Client as ModernClient,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { type CallToolResult, CallToolResultSchema, ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { McpTransportUsed } from '@/lib/discovery/introspect-mcp-server'
import { MCP_POST_HEADERS } from '@/lib/discovery/mcp/compliance-probes'
import { findJsonRpcAnswer, type JsonRpcMessage, readJsonRpcAnswer, sseDataFrames } from '@/lib/discovery/mcp/json-rpc-answer'
import { excerptOf, isObject } from '@/lib/json/unknown-values'
import { OutboundError } from '@/lib/outbound/outbound-error'
import { ToolFailure } from '../tool-errors'

/** How one call is bounded, cancelled, and where the upstream's progress reports go. */
export interface CallOptions {
  timeout: number
  signal?: AbortSignal
  onprogress?: (report: { progress: number; total?: number; message?: string }) => void
  /** The tool's inputSchema, for a 2026-07-28 upstream whose tool mirrors parameters into headers (`x-mcp-header`). */
  inputSchema?: unknown
}

export interface McpSession {
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>
  close(): Promise<void>
  readonly openedAt: number
  /** True once the session can carry no more calls (an SSE stream that ended). */
  readonly broken: boolean
}

const CLIENT_INFO = { name: 'toolroom-gateway', version: '1.0.0' }

export async function openMcpSession(
  target: { url: string; transport: McpTransportUsed },
  headers: Record<string, string>,
  fetch: FetchLike,
  timeoutMs: number,
): Promise<McpSession> {
  if (target.transport === 'stateless-post') return PlainPostSession.open(target.url, headers, fetch, timeoutMs)
  if (target.transport === 'streamable-http-2026-07-28') return openModernSession(target.url, headers, fetch, timeoutMs)
  return openSdkSession(target.transport, target.url, headers, fetch, timeoutMs)
}

async function openSdkSession(
  kind: 'streamable-http' | 'sse',
  url: string,
  headers: Record<string, string>,
  fetch: FetchLike,
  timeoutMs: number,
): Promise<McpSession> {
  let refused: OutboundError | undefined
  const transportFetch: FetchLike = async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase()
    // Over streamable HTTP the gateway never needs the server-initiated stream: "not offered".
    if (kind === 'streamable-http' && method === 'GET' && /text\/event-stream/i.test(new Headers(init?.headers).get('accept') ?? ''))
      return new Response(null, { status: 405 })
    const response = await fetch(input, init).catch((e: unknown) => {
      if (e instanceof OutboundError) refused = e
      throw e
    })
    // The SSE transport reports a refused POST as a bare Error; the status decides retry and re-session.
    if (kind === 'sse' && method === 'POST' && !response.ok) throw new StreamableHTTPError(response.status, excerptOf(await response.text().catch(() => '')))
    return response
  }
  const transportOptions = { fetch: transportFetch, requestInit: { headers } }
  const transport = kind === 'sse' ? new SSEClientTransport(new URL(url), transportOptions) : new StreamableHTTPClientTransport(new URL(url), transportOptions)
  const client = new Client(CLIENT_INFO, { capabilities: {} })
  const session = {
    openedAt: Date.now(),
    broken: false,
    callTool: async (name: string, args: Record<string, unknown>, { inputSchema: _discovered, ...options }: CallOptions) =>
      (await client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, options)) as CallToolResult,
    close: () => client.close(),
  }
  // An SSE stream that ends takes every answer still due with it: the session is done (pending calls
  // fail as "connection closed", the next call opens a new one).
  client.onerror = (e) => {
    if (kind === 'sse' && e instanceof SseError) {
      session.broken = true
      void client.close().catch(() => {})
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    // SSEClientTransport.start() waits for the `endpoint` event without a bound of its own.
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `no session within ${timeoutMs} ms`)), timeoutMs)
    })
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), bound])
  } catch (e) {
    await client.close().catch(() => {})
    if (refused) throw refused
    if (e instanceof SseError) throw typeof e.code === 'number' ? new StreamableHTTPError(e.code, e.message) : new OutboundError('network', e.message)
    throw e
  } finally {
    clearTimeout(timer)
  }
  return session
}

/**
 * MCP 2026-07-28: SDK v2's client pinned to the revision (server/discover once, then each call a
 * request of its own, cancelled by closing its stream). Its failures are turned into the shapes the
 * executor classifies, as SDK v1 raises them.
 */
async function openModernSession(url: string, headers: Record<string, string>, fetch: FetchLike, timeoutMs: number): Promise<McpSession> {
  let refused: OutboundError | undefined
  const transport = new ModernStreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) =>
      fetch(input, init).catch((e: unknown) => {
        if (e instanceof OutboundError) refused = e
        throw e
      }),
    requestInit: { headers },
  })
  const client = new ModernClient(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs } } })
  client.onerror = () => {}
  try {
    await client.connect(transport, { timeout: timeoutMs })
  } catch (e) {
    await client.close().catch(() => {})
    throw refused ?? asV1Error(e)
  }
  return {
    openedAt: Date.now(),
    broken: false,
    callTool: async (name, args, options) => {
      try {
        const toolDefinition = options.inputSchema ? { toolDefinition: { name, inputSchema: options.inputSchema as { type: 'object' } } } : {}
        return (await client.callTool(
          { name, arguments: args },
          { timeout: options.timeout, signal: options.signal, onprogress: options.onprogress, ...toolDefinition },
        )) as CallToolResult
      } catch (e) {
        if (options.signal?.aborted) throw options.signal.reason
        throw refused ?? asV1Error(e)
      }
    },
    close: () => client.close(),
  }
}

/** SDK v2's failures as SDK v1 raises them: a JSON-RPC error, the client's own timeout or closed connection, an HTTP status. */
function asV1Error(e: unknown): unknown {
  if (e instanceof ProtocolError) return new McpError(e.code, e.message, e.data)
  if (e instanceof SdkHttpError) return new StreamableHTTPError(e.status, e.message)
  if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return new McpError(ErrorCode.RequestTimeout, e.message)
  if (e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed) return new McpError(ErrorCode.ConnectionClosed, e.message)
  return e
}

/** initialize, then each call as one JSON-RPC POST answered by JSON (whatever its content type) or an SSE frame. */
class PlainPostSession implements McpSession {
  readonly openedAt = Date.now()
  readonly broken = false
  private nextId = 1
  private readonly headers: Record<string, string>
  private sessionId: string | undefined

  private constructor(
    private readonly url: string,
    headers: Record<string, string>,
    private readonly fetch: FetchLike,
  ) {
    this.headers = { ...headers, ...MCP_POST_HEADERS }
  }

  static async open(url: string, headers: Record<string, string>, fetch: FetchLike, timeoutMs: number): Promise<PlainPostSession> {
    const session = new PlainPostSession(url, headers, fetch)
    const init = await session.request(
      'initialize',
      { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
      { timeout: timeoutMs },
    )
    if (isObject(init) && typeof init.protocolVersion === 'string') session.headers['mcp-protocol-version'] = init.protocolVersion
    const note = await session.post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), AbortSignal.timeout(timeoutMs)).catch(() => null)
    await note?.body?.cancel().catch(() => {})
    return session
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const result = CallToolResultSchema.safeParse(await this.request('tools/call', { name, arguments: args }, options))
    if (!result.success) throw new ToolFailure('the MCP server answered tools/call with something that is not a tool result', 'upstream_invalid')
    return result.data
  }

  async close(): Promise<void> {
    if (!this.sessionId) return
    const answer = await this.fetch(this.url, { method: 'DELETE', headers: this.headers, signal: AbortSignal.timeout(5_000) }).catch(() => null)
    await answer?.body?.cancel().catch(() => {})
  }

  private post(body: string, signal: AbortSignal): Promise<Response> {
    return this.fetch(this.url, { method: 'POST', headers: this.headers, body, signal })
  }

  private async request(method: string, params: Record<string, unknown>, options: { timeout: number; signal?: AbortSignal }): Promise<unknown> {
    const id = this.nextId++
    const deadline = AbortSignal.timeout(options.timeout)
    let answer: { status: number; message?: JsonRpcMessage; excerpt: string }
    try {
      const response = await this.post(
        JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
      )
      // A session server hands out its session with the answer to initialize.
      const session = method === 'initialize' ? response.headers.get('mcp-session-id') : null
      if (session) this.headers['mcp-session-id'] = this.sessionId = session
      answer = await readAnswer(response, id)
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason
      if (deadline.aborted) throw new McpError(ErrorCode.RequestTimeout, `Request timed out after ${options.timeout} ms`)
      throw e
    }
    const { status, message } = answer
    // A session the server forgot (404) is re-opened by the executor, whatever the body says.
    if (status === 404) throw new StreamableHTTPError(status, answer.excerpt)
    if (message?.error !== undefined) {
      const error = isObject(message.error) ? message.error : {}
      throw new McpError(
        typeof error.code === 'number' ? error.code : ErrorCode.InternalError,
        typeof error.message === 'string' ? error.message : '',
        error.data,
      )
    }
    if (status < 200 || status >= 300) throw new StreamableHTTPError(status, answer.excerpt)
    if (message && 'result' in message) return message.result
    throw new ToolFailure(`the MCP server sent no JSON-RPC answer to ${method} (HTTP ${status}): ${answer.excerpt || 'empty body'}`, 'upstream_invalid')
  }
}

/** The answer to `id` in a streamed (SSE) body, or in a buffered one: JSON, or SSE frames sent without their content type. */
async function readAnswer(response: Response, id: number): Promise<{ status: number; message?: JsonRpcMessage; excerpt: string }> {
  if (response.body) return readJsonRpcAnswer(response, id)
  const text = await response.text()
  const parse = (s: string) => {
    try {
      return findJsonRpcAnswer(JSON.parse(s), id)
    } catch {
      return undefined
    }
  }
  const message =
    parse(text) ??
    sseDataFrames(text)
      .map(parse)
      .find((m) => m !== undefined)
  return { status: response.status, message, excerpt: excerptOf(text) }
}
