// The stateless fallback: initialize and tools/list as plain JSON-RPC POSTs.
import 'server-only'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { deleteMcpSession, MCP_POST_HEADERS } from './compliance-probes'
import { AttemptError, describeError } from './errors'
import { probeAnswerFromHttp, readJsonRpcAnswer } from './json-rpc-answer'
import { type AttemptContext, CLIENT_INFO, type Listing, listAllPages } from './listing'
import { excerptOf, isObject, safeJson } from '@/lib/json/unknown-values'

/** The last fallback: initialize and tools/list as plain JSON-RPC POSTs, each answered by JSON or an SSE frame. */
export async function listOverPlainPosts(url: URL, ctx: AttemptContext): Promise<Listing> {
  const headers: Record<string, string> = { ...ctx.headers, ...MCP_POST_HEADERS }
  const limits = { timeoutMs: ctx.requestTimeoutMs }
  let nextId = 1
  let sessionId: string | undefined
  const call = async (step: 'initialize' | 'tools/list', method: string, params: Record<string, unknown>): Promise<unknown> => {
    const id = nextId++
    let response: Response
    try {
      response = await ctx.fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }), signal: ctx.signal }, limits)
    } catch (e) {
      throw new AttemptError(step, describeError(e))
    }
    // A session server hands out its session with the answer to initialize.
    const session = response.headers.get('mcp-session-id')
    if (session && !sessionId) {
      sessionId = session
      headers['mcp-session-id'] = session
    }
    const answer = await readJsonRpcAnswer(response, id).catch((e: unknown) => {
      throw new AttemptError(step, `reading the answer to ${method}: ${describeError(e)}`)
    })
    const probe = probeAnswerFromHttp(answer)
    switch (probe.kind) {
      case 'result':
        if (answer.status >= 300) throw new AttemptError(step, `${method} answered HTTP ${answer.status}`)
        return answer.message?.result
      case 'jsonrpc-error':
        throw new AttemptError(step, `${method} answered JSON-RPC error ${probe.code} "${probe.message}" (HTTP ${answer.status})`, answer.status < 300)
      case 'http-error':
        throw new AttemptError(step, `${method} answered HTTP ${probe.httpStatus}${probe.body ? `: ${probe.body}` : ''}`)
      default:
        throw new AttemptError(step, `${method} got no JSON-RPC answer (HTTP ${answer.status}): ${answer.excerpt || 'empty body'}`)
    }
  }
  try {
    const init = await call('initialize', 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO })
    if (!isObject(init)) throw new AttemptError('initialize', `initialize answered a result that is not an object: ${excerptOf(safeJson(init))}`)
    const protocolVersion = typeof init.protocolVersion === 'string' ? init.protocolVersion : undefined
    const info = isObject(init.serverInfo) && typeof init.serverInfo.name === 'string' ? init.serverInfo : undefined
    if (protocolVersion) headers['mcp-protocol-version'] = protocolVersion
    await ctx
      .fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), signal: ctx.signal }, limits)
      .then((r) => r.body?.cancel())
      .catch(() => {})
    const rawTools = await listAllPages((cursor) => call('tools/list', 'tools/list', cursor !== undefined ? { cursor } : {}), ctx)
    return {
      transport: 'stateless-post',
      url,
      ...(info ? { serverInfo: { name: String(info.name), version: typeof info.version === 'string' ? info.version : '' } } : {}),
      protocolVersion,
      rawTools,
    }
  } finally {
    if (sessionId) await deleteMcpSession(ctx.fetch, url, { headers, signal: ctx.signal }, limits)
  }
}
