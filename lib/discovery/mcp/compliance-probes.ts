// Probing for the compliance report: the two failure probes through any requester, and over plain
// JSON-RPC POSTs through the guarded fetch.
import 'server-only'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { GuardedFetch, OutboundLimits } from '@/lib/outbound/guarded-fetch'
import { COMPLIANCE_PROBE_METHOD, COMPLIANCE_PROBE_TOOL, type ProbeAnswer } from './compliance-report'
import { type JsonRpcHttpAnswer, probeAnswerFromHttp, readJsonRpcAnswer } from './json-rpc-answer'

/** Sends one JSON-RPC request and reports how it was answered. */
export type ProbeRequester = (method: string, params: Record<string, unknown>) => Promise<ProbeAnswer>

export interface ComplianceProbeResult {
  toolCallProbe: ProbeAnswer
  unknownMethodProbe: ProbeAnswer
}

/** The two failure probes (missing tool, unknown method) through any requester. */
export async function runComplianceProbes(request: ProbeRequester): Promise<ComplianceProbeResult> {
  const toolCallProbe = await request('tools/call', { name: COMPLIANCE_PROBE_TOOL, arguments: {} })
  const unknownMethodProbe = await request(COMPLIANCE_PROBE_METHOD, {})
  return { toolCallProbe, unknownMethodProbe }
}

export interface PostProbeOptions {
  fetch: GuardedFetch
  headers?: Record<string, string>
  timeoutMs?: number
  signal?: AbortSignal
  /**
   * An initialized session to probe in (the one discovery listed the tools in): no initialize and no
   * DELETE of its own. `id` is absent for a stateless server, which needs no session at all.
   */
  session?: { id?: string; protocolVersion?: string }
}

export const MCP_POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const

/** Ends a session opened over plain POSTs, so the server can free it at once; a failure changes nothing. */
export async function deleteMcpSession(
  fetch: GuardedFetch,
  url: string | URL,
  init: { headers: Record<string, string>; signal?: AbortSignal },
  limits?: OutboundLimits,
) {
  await fetch(url, { method: 'DELETE', ...init }, limits)
    .then((r) => r.body?.cancel())
    .catch(() => {})
}

/**
 * The failure probes over plain JSON-RPC POSTs to `mcpUrl` (streamable HTTP and stateless servers):
 * initialize first (keeping the Mcp-Session-Id a session server hands out), then the probes, then
 * DELETE of the session. Never throws: what could not be observed is reported as `unreachable`.
 */
export async function probeComplianceOverPost(mcpUrl: string, options: PostProbeOptions): Promise<ComplianceProbeResult> {
  const headers: Record<string, string> = { ...options.headers, ...MCP_POST_HEADERS }
  const limits = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : undefined
  let nextId = 1
  const post = async (body: unknown, id?: number): Promise<JsonRpcHttpAnswer> => {
    const response = await options.fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body), signal: options.signal }, limits)
    if (id === undefined) {
      await response.body?.cancel().catch(() => {})
      return { status: response.status, headers: response.headers, excerpt: '' }
    }
    return readJsonRpcAnswer(response, id)
  }
  const request: ProbeRequester = async (method, params) => {
    const id = nextId++
    try {
      return probeAnswerFromHttp(await post({ jsonrpc: '2.0', id, method, params }, id))
    } catch (e) {
      return { kind: 'unreachable', detail: (e as Error).message }
    }
  }

  if (options.session) {
    if (options.session.id) headers['mcp-session-id'] = options.session.id
    if (options.session.protocolVersion) headers['mcp-protocol-version'] = options.session.protocolVersion
    return runComplianceProbes(request)
  }
  let sessionId: string | undefined
  try {
    const id = nextId++
    const init = await post(
      {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'toolroom-compliance', version: '1' } },
      },
      id,
    )
    sessionId = init.headers.get('mcp-session-id') ?? undefined
    if (sessionId) headers['mcp-session-id'] = sessionId
    const negotiated = (init.message?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion
    if (typeof negotiated === 'string') headers['mcp-protocol-version'] = negotiated
    if (init.message && 'result' in init.message) await post({ jsonrpc: '2.0', method: 'notifications/initialized' })
  } catch {
    // the probes below report what they see
  }
  try {
    return await runComplianceProbes(request)
  } finally {
    if (sessionId) await deleteMcpSession(options.fetch, mcpUrl, { headers, signal: options.signal }, limits)
  }
}
