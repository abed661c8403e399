// `mcp` tools: forwarded as `tools/call` to their server over pooled sessions (one session per
// server and credential set, an `oauth2` credential's current access token included, reused by every call; dropped when it fails, and at most
// TOOLROOM_GATEWAY_MCP_SESSION_TTL_S old so rotated header secrets are picked up), over the
// transport discovery reached the server by (./mcp-sessions.ts).
import 'server-only'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { config } from '@/lib/config'
import type { Person } from '@/lib/identity/person'
import { isPerPerson } from '@/lib/manifests/specs/upstream-auth'
import { mcpSessionFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import type { InjectedSecrets } from '../injected-secrets'
import type { McpTarget } from '../tool-binding'
import { RPC, ToolFailure, TransientError } from '../tool-errors'
import { mcpServerBearerToken } from '../upstream-credential'
import { type McpSession, openMcpSession } from './mcp-sessions'

const sessionTtlMs = () => config().TOOLROOM_GATEWAY_MCP_SESSION_TTL_S * 1000
const callTimeoutMs = () => config().TOOLROOM_GATEWAY_MCP_TIMEOUT_MS
const pool = new Map<string, Promise<McpSession>>()

async function headersOf(target: McpTarget, secrets: InjectedSecrets, person: Person | null | undefined): Promise<Record<string, string>> {
  const headers: Record<string, string> = {}
  for (const h of target.authHeaders) {
    const value = await readSecretValue(h.secretRef, target.namespace)
    secrets.add(value, `the ${h.name} header's value (Secret "${h.secretRef.name}")`)
    headers[h.name] = value
  }
  if (target.oauth2) {
    const token = await mcpServerBearerToken(target, target.oauth2, person)
    secrets.add(
      token,
      `the access token of ${
        target.oauth2.clientId
          ? `OAuth client "${target.oauth2.clientId}"`
          : `the connection of "${target.namespace}/${target.name}"${isPerPerson(target.oauth2) && person ? ` for ${person.displayName}` : ''}`
      }`,
    )
    headers.authorization = `Bearer ${token}`
  }
  return headers
}

function open(target: McpTarget, headers: Record<string, string>): Promise<McpSession> {
  return openMcpSession(target, headers, mcpSessionFetch(callTimeoutMs()), callTimeoutMs())
}

/** The pool key each configured server was last called with: a refreshed OAuth token (or a rotated Secret's value) makes a new one. */
const latestKey = new Map<string, string>()

/**
 * A server's session opened with credentials that have since changed is never looked up again: it
 * is closed once every call that may still be on it has had its whole timeout.
 */
function retireSuperseded(server: string, key: string) {
  const previous = latestKey.get(server)
  if (previous === key) return
  latestKey.set(server, key)
  const session = previous === undefined ? undefined : pool.get(previous)
  if (previous === undefined || !session) return
  setTimeout(() => drop(previous, session), callTimeoutMs()).unref?.()
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
  secrets: InjectedSecrets,
  signal?: AbortSignal,
  progress?: (report: { progress: number; total?: number; message?: string }) => void,
  /** The tool's inputSchema as discovered: a 2026-07-28 client mirrors its `x-mcp-header` parameters into headers. */
  inputSchema?: unknown,
  /** This attempt's share of the call's deadline (what is left of it: lib/gateway/retry.ts); opening a session counts. */
  attemptMs: number = callTimeoutMs(),
  /** Whom the call is made for: a `token_exchange` credential sends their exchanged token, a `connect: perPerson` server their own connection's (a session of their own). */
  person: Person | null = null,
): Promise<CallToolResult> {
  const attemptEnds = performance.now() + attemptMs
  const left = () => Math.max(1, Math.floor(attemptEnds - performance.now()))
  let headers: Record<string, string>
  try {
    headers = await headersOf(target, secrets, person)
  } catch (e) {
    if (e instanceof ToolFailure) throw e
    throw new ToolFailure(`the server's credentials cannot be read: ${(e as Error).message}`, 'secret_unavailable')
  }
  const key = `${target.transport} ${target.url}\n${JSON.stringify(headers)}`
  // The server with the credentials it is configured with (references, not their values).
  // Each person's connection is a server of its own here: one person's token never retires another's session.
  const whose = target.oauth2 && isPerPerson(target.oauth2) && person ? [person.issuer, person.subject] : null
  retireSuperseded(JSON.stringify([target.transport, target.url, target.namespace, target.authHeaders, target.oauth2 ?? null, whose]), key)
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
      // A pooled session opening for another call may take longer than this attempt has: it keeps opening for them.
      const s = await within(
        current.catch((e) => {
          drop(key, current)
          throw e
        }),
        left(),
      )
      return await s.callTool(upstreamName, args, { timeout: left(), signal, onprogress: progress, inputSchema })
    } catch (e) {
      // A server that forgot the session (restart, expiry) never saw the call: one fresh session may retry it.
      if (e instanceof StreamableHTTPError && e.code === 404 && !fresh) {
        drop(key, current)
        continue
      }
      throw classify(e, attemptMs, () => drop(key, current))
    }
  }
}

function classify(e: unknown, attemptMs: number, dropSession: () => void): Error {
  if (e instanceof McpError) {
    if (e.code === ErrorCode.RequestTimeout) return new TransientError(`the MCP server did not answer within ${attemptMs} ms`, { failure: 'timeout' })
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
  // An answer over the size limit is no network trouble, and would be as large again.
  if (outbound?.failure === 'too_large') return new ToolFailure(outbound.message, 'outbound_too_large')
  if (outbound || e instanceof TypeError)
    return new TransientError(`the MCP server cannot be reached: ${(outbound ?? (e as Error)).message}`, { failure: 'network' })
  return e as Error
}

/** `promise`, or a timeout (as the SDK raises it) once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `no session within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Closes every pooled session (tests, shutdown). */
export async function closeMcpSessions(): Promise<void> {
  const sessions = [...pool.values()]
  pool.clear()
  await Promise.all(sessions.map((s) => s.then((x) => x.close()).catch(() => {})))
}
