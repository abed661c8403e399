// `mcp` tools: forwarded as `tools/call` to their server over pooled sessions (one session per
// server and credential set, an `oauth2` credential's current access token included, reused by every call; dropped when it fails, and at most
// TOOLROOM_GATEWAY_MCP_SESSION_TTL_S old so rotated header secrets are picked up), over the
// transport discovery reached the server by (./mcp-sessions.ts).
import 'server-only'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { config } from '@/lib/config'
import { mcpSessionFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { TransientError } from '../retry'
import type { McpTarget } from '../tool-binding'
import { RPC, ToolFailure } from '../tool-errors'
import { upstreamBearerToken } from '../upstream-credential'
import { type McpSession, openMcpSession } from './mcp-sessions'

const sessionTtlMs = () => config().TOOLROOM_GATEWAY_MCP_SESSION_TTL_S * 1000
const callTimeoutMs = () => config().TOOLROOM_GATEWAY_MCP_TIMEOUT_MS
const pool = new Map<string, Promise<McpSession>>()

async function headersOf(target: McpTarget, sensitive: Set<string>): Promise<Record<string, string>> {
  const headers: Record<string, string> = {}
  for (const h of target.authHeaders) {
    const value = await readSecretValue(h.secretRef, target.namespace)
    sensitive.add(value)
    headers[h.name] = value
  }
  if (target.oauth2) {
    const token = await upstreamBearerToken(target.oauth2, target.namespace)
    sensitive.add(token)
    headers.authorization = `Bearer ${token}`
  }
  return headers
}

function open(target: McpTarget, headers: Record<string, string>): Promise<McpSession> {
  return openMcpSession(target, headers, mcpSessionFetch(callTimeoutMs()), callTimeoutMs())
}

function drop(key: string, session: Promise<McpSession>) {
  if (pool.get(key) !== session) return
  pool.delete(key)
  session.then((s) => s.close()).catch(() => {})
}

export async function executeMcp(
  target: McpTarget,
  upstreamName: string,
  args: Record<string, unknown>,
  sensitive: Set<string>,
  signal?: AbortSignal,
  progress?: (report: { progress: number; total?: number; message?: string }) => void,
  /** The tool's inputSchema as discovered: a 2026-07-28 client mirrors its `x-mcp-header` parameters into headers. */
  inputSchema?: unknown,
): Promise<CallToolResult> {
  let headers: Record<string, string>
  try {
    headers = await headersOf(target, sensitive)
  } catch (e) {
    if (e instanceof ToolFailure) throw e
    throw new ToolFailure(`the server's credentials cannot be read: ${(e as Error).message}`, 'secret_unavailable')
  }
  const key = `${target.transport} ${target.url}\n${JSON.stringify(headers)}`
  for (let fresh = false; ; fresh = true) {
    let session = pool.get(key)
    if (
      session &&
      (await session.then(
        (s) => s.broken || Date.now() - s.openedAt > sessionTtlMs(),
        () => true,
      ))
    ) {
      drop(key, session)
      session = undefined
    }
    if (!session) {
      session = open(target, headers)
      pool.set(key, session)
    }
    const current = session
    try {
      const s = await current.catch((e) => {
        drop(key, current)
        throw e
      })
      return await s.callTool(upstreamName, args, { timeout: callTimeoutMs(), signal, onprogress: progress, inputSchema })
    } catch (e) {
      // A server that forgot the session (restart, expiry) never saw the call: one fresh session may retry it.
      if (e instanceof StreamableHTTPError && e.code === 404 && !fresh) {
        drop(key, current)
        continue
      }
      throw classify(e, () => drop(key, current))
    }
  }
}

function classify(e: unknown, dropSession: () => void): Error {
  if (e instanceof McpError) {
    if (e.code === ErrorCode.RequestTimeout) return new TransientError(`the MCP server did not answer within ${callTimeoutMs()} ms`, { failure: 'timeout' })
    if (e.code === ErrorCode.ConnectionClosed) {
      dropSession()
      return new TransientError('the connection to the MCP server closed', { failure: 'network' })
    }
    const message = e.message.replace(/^MCP error -?\d+: /, '')
    const reply = JSON.stringify({ code: e.code, message, ...(e.data !== undefined ? { data: e.data } : {}) })
    return new ToolFailure(
      `the MCP server answered an error: ${message}`,
      'upstream_error',
      { upstream: { code: e.code, message, data: e.data } },
      e.code === RPC.INVALID_PARAMS ? RPC.INVALID_PARAMS : RPC.INTERNAL_ERROR,
      reply,
    )
  }
  dropSession()
  if (e instanceof StreamableHTTPError) {
    // The SDK's message carries the body the server answered with, after its own prefixes.
    const reply = e.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '')
    if (e.code === 502 || e.code === 503 || e.code === 504) return new TransientError(`the MCP server answered HTTP ${e.code}`, { status: e.code }, reply)
    return new ToolFailure(`the MCP server answered HTTP ${e.code}: ${e.message}`, 'upstream_status', { status: e.code }, RPC.INTERNAL_ERROR, reply)
  }
  const outbound = outboundErrorOf(e)
  if (outbound?.failure === 'refused') return new ToolFailure(outbound.message, 'outbound_refused')
  if (outbound || e instanceof TypeError)
    return new TransientError(`the MCP server cannot be reached: ${(outbound ?? (e as Error)).message}`, { failure: 'network' })
  return e as Error
}

/** Closes every pooled session (tests, shutdown). */
export async function closeMcpSessions(): Promise<void> {
  const sessions = [...pool.values()]
  pool.clear()
  await Promise.all(sessions.map((s) => s.then((x) => x.close()).catch(() => {})))
}
