// Compliance of an MCP server with the LanguageTool checklist (language-operator seed): JSON-RPC at
// the endpoint, tools/list with every input schema, tools/call, GET /health and MCP error objects
// rather than HTTP error statuses. The report is built from observations by pure functions; the
// probing (plain JSON-RPC POSTs through the guarded fetch, or requests over a connected SDK client
// for SSE servers) is separate.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { GuardedFetch } from './outbound/guarded-fetch'

export type ComplianceStatus = 'pass' | 'fail' | 'unknown'

export type ComplianceItemId = 'json-rpc' | 'tools-list' | 'tools-call' | 'health' | 'mcp-errors'

export interface ComplianceItem {
  id: ComplianceItemId
  requirement: string
  status: ComplianceStatus
  detail: string
}

export interface ComplianceReport {
  /** 'pass' when every item passes, 'fail' when one fails, 'unknown' otherwise. */
  status: ComplianceStatus
  items: ComplianceItem[]
}

/** The name of the tool the tools/call probe asks for; no server has it. */
export const COMPLIANCE_PROBE_TOOL = '__toolroom_compliance_probe__'
/** A method no server implements; a compliant one answers JSON-RPC error -32601. */
export const COMPLIANCE_PROBE_METHOD = 'toolroom/compliance_probe'

export const COMPLIANCE_REQUIREMENTS: Record<ComplianceItemId, string> = {
  'json-rpc': 'Implement MCP JSON-RPC at the endpoint',
  'tools-list': 'Respond to tools/list with all available tools and their input schemas',
  'tools-call': 'Respond to tools/call with the result of invoking the named tool',
  health: 'Expose GET /health returning 200 OK with {"status":"ok"} when ready',
  'mcp-errors': 'Return MCP error objects for failures, not HTTP error status codes',
}

/** How a server answered one probe request. `httpStatus` is absent where the transport hides it (SSE). */
export type ProbeAnswer =
  | { kind: 'jsonrpc-error'; httpStatus?: number; code: number; message: string }
  | { kind: 'result'; httpStatus?: number; isError: boolean }
  /** An HTTP error status with no JSON-RPC answer in the body. */
  | { kind: 'http-error'; httpStatus: number; body: string }
  /** A success status whose body is not a JSON-RPC answer to the request. */
  | { kind: 'invalid'; httpStatus?: number; detail: string }
  /** No answer at all (network failure, timeout, refused by the outbound guard). */
  | { kind: 'unreachable'; detail: string }

export interface ComplianceObservations {
  /** initialize worked over this transport; null when it worked over none; undefined when not tried. */
  initialize?: { transport: string; protocolVersion?: string; serverName?: string } | null
  initializeError?: string
  /** The complete tools/list answer (all pages), as received; undefined when listing did not finish. */
  tools?: Array<{ name?: unknown; inputSchema?: unknown }>
  listError?: string
  /** Outcome of the readiness check. */
  health?: { state: 'ok' | 'absent' | 'not-ok'; detail?: string }
  /** tools/call of COMPLIANCE_PROBE_TOOL. */
  toolCallProbe?: ProbeAnswer
  /** A call of COMPLIANCE_PROBE_METHOD. */
  unknownMethodProbe?: ProbeAnswer
  /** Why the probes did not run, when they did not. */
  probeSkipped?: string
}

const item = (id: ComplianceItemId, status: ComplianceStatus, detail: string): ComplianceItem => ({
  id,
  requirement: COMPLIANCE_REQUIREMENTS[id],
  status,
  detail,
})

const isHttpError = (status: number | undefined) => status !== undefined && (status < 200 || status >= 300)

export function describeProbeAnswer(answer: ProbeAnswer): string {
  const http = 'httpStatus' in answer && answer.httpStatus !== undefined ? ` (HTTP ${answer.httpStatus})` : ''
  switch (answer.kind) {
    case 'jsonrpc-error':
      return `JSON-RPC error ${answer.code} "${answer.message}"${http}`
    case 'result':
      return `a result with isError: ${answer.isError}${http}`
    case 'http-error':
      return `HTTP ${answer.httpStatus} with no JSON-RPC answer${answer.body ? `: ${answer.body}` : ''}`
    case 'invalid':
      return `no JSON-RPC answer${http}: ${answer.detail}`
    case 'unreachable':
      return `no answer: ${answer.detail}`
  }
}

function checkJsonRpc(o: ComplianceObservations): ComplianceItem {
  if (o.initialize === undefined) return item('json-rpc', 'unknown', 'initialize was not attempted')
  if (o.initialize === null) return item('json-rpc', 'fail', `initialize failed: ${o.initializeError ?? 'no transport worked'}`)
  const { transport, protocolVersion, serverName } = o.initialize
  const who = serverName ? ` by "${serverName}"` : ''
  return item('json-rpc', 'pass', `initialize answered over ${transport}${who}${protocolVersion ? `, protocol ${protocolVersion}` : ''}`)
}

function checkToolsList(o: ComplianceObservations): ComplianceItem {
  if (!o.tools) {
    if (o.listError) return item('tools-list', 'fail', `tools/list failed: ${o.listError}`)
    return item('tools-list', 'unknown', 'tools/list was not called')
  }
  const problems: string[] = []
  o.tools.forEach((tool, index) => {
    const label = typeof tool.name === 'string' && tool.name ? `"${tool.name}"` : `#${index + 1} (no name)`
    const schema = tool.inputSchema
    if (schema === undefined) problems.push(`${label} has no inputSchema`)
    else if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) problems.push(`${label} has an inputSchema that is not an object`)
    else if ((schema as { type?: unknown }).type !== 'object') problems.push(`${label} has an inputSchema whose type is not "object"`)
  })
  if (problems.length) return item('tools-list', 'fail', problems.join('; '))
  return item('tools-list', 'pass', `${o.tools.length} tool${o.tools.length === 1 ? '' : 's'}, each with an object inputSchema`)
}

function checkToolsCall(o: ComplianceObservations): ComplianceItem {
  const a = o.toolCallProbe
  if (!a) return item('tools-call', 'unknown', o.probeSkipped ?? 'tools/call was not probed')
  const said = `tools/call of the missing tool ${COMPLIANCE_PROBE_TOOL} answered ${describeProbeAnswer(a)}`
  switch (a.kind) {
    case 'jsonrpc-error':
      return isHttpError(a.httpStatus) ? item('tools-call', 'fail', `${said}: the error should come with a success status`) : item('tools-call', 'pass', said)
    case 'result':
      if (!a.isError) return item('tools-call', 'fail', `${said}: a missing tool must not succeed`)
      return isHttpError(a.httpStatus) ? item('tools-call', 'fail', `${said}: the error should come with a success status`) : item('tools-call', 'pass', said)
    case 'unreachable':
      return item('tools-call', 'unknown', said)
    default:
      return item('tools-call', 'fail', said)
  }
}

function checkHealth(o: ComplianceObservations): ComplianceItem {
  const h = o.health
  if (!h) return item('health', 'unknown', 'GET /health was not checked')
  if (h.state === 'ok') return item('health', 'pass', h.detail ?? 'GET /health answered 200 {"status":"ok"}')
  if (h.state === 'absent') return item('health', 'fail', h.detail ?? 'GET /health answered 404: the server has no /health route')
  return item('health', 'fail', h.detail ?? 'GET /health never answered 200 {"status":"ok"}')
}

function checkMcpErrors(o: ComplianceObservations): ComplianceItem {
  const call = o.toolCallProbe
  const unknown = o.unknownMethodProbe
  if (!call && !unknown) return item('mcp-errors', 'unknown', o.probeSkipped ?? 'failures were not probed')
  const failures: string[] = []
  const passes: string[] = []
  const unknowns: string[] = []
  if (call) {
    const said = `tools/call of a missing tool answered ${describeProbeAnswer(call)}`
    if (call.kind === 'unreachable') unknowns.push(said)
    else if ((call.kind === 'jsonrpc-error' || (call.kind === 'result' && call.isError)) && !isHttpError(call.httpStatus)) passes.push(said)
    else failures.push(said)
  }
  if (unknown) {
    const said = `the unknown method ${COMPLIANCE_PROBE_METHOD} answered ${describeProbeAnswer(unknown)}`
    if (unknown.kind === 'unreachable') unknowns.push(said)
    else if (unknown.kind === 'jsonrpc-error' && unknown.code === -32601 && !isHttpError(unknown.httpStatus)) passes.push(said)
    else if (unknown.kind === 'jsonrpc-error' && !isHttpError(unknown.httpStatus)) failures.push(`${said}, expected -32601 (method not found)`)
    else failures.push(`${said}, expected JSON-RPC error -32601`)
  }
  if (failures.length) return item('mcp-errors', 'fail', failures.join('; '))
  if (unknowns.length || !call || !unknown) return item('mcp-errors', 'unknown', [...unknowns, ...passes].join('; ') || 'failures were not fully probed')
  return item('mcp-errors', 'pass', passes.join('; '))
}

/** The checklist report for what was observed; pure. */
export function buildComplianceReport(observations: ComplianceObservations): ComplianceReport {
  const items = [checkJsonRpc, checkToolsList, checkToolsCall, checkHealth, checkMcpErrors].map((check) => check(observations))
  const status: ComplianceStatus = items.some((i) => i.status === 'fail') ? 'fail' : items.every((i) => i.status === 'pass') ? 'pass' : 'unknown'
  return { status, items }
}

// ---------------------------------------------------------------------------------------------
// Reading JSON-RPC answers from HTTP bodies (also used by the stateless-POST discovery fallback).

export interface JsonRpcMessage {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown; data?: unknown }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The JSON-RPC answer to request `id` in a parsed body (one message or a batch), if any. */
export function findJsonRpcAnswer(parsed: unknown, id: string | number): JsonRpcMessage | undefined {
  const messages = Array.isArray(parsed) ? parsed : [parsed]
  return messages.find((m): m is JsonRpcMessage => isObject(m) && m.id === id && ('result' in m || 'error' in m))
}

/** Events of a complete SSE body: the `data:` lines of each event, joined. */
export function sseDataFrames(text: string): string[] {
  const frames: string[] = []
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
    if (data.length) frames.push(data.join('\n'))
  }
  return frames
}

export interface JsonRpcHttpAnswer {
  status: number
  headers: Headers
  /** The answer to the request, when the body held one (JSON or an SSE `data:` frame). */
  message?: JsonRpcMessage
  /** The start of the body, for error messages. */
  excerpt: string
}

/**
 * Reads an HTTP answer to a JSON-RPC request: a JSON body, or an SSE stream read until the frame
 * that answers `id` (the stream is then cancelled, so servers that keep it open do not hold us).
 */
export async function readJsonRpcAnswer(response: Response, id: string | number): Promise<JsonRpcHttpAnswer> {
  const contentType = response.headers.get('content-type') ?? ''
  const base = { status: response.status, headers: response.headers }
  if (!response.body) return { ...base, excerpt: '' }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const sse = /text\/event-stream/i.test(contentType)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      if (sse) {
        const complete = text.replace(/\r\n?/g, '\n')
        const cut = complete.lastIndexOf('\n\n')
        if (cut !== -1) {
          const message = answerInFrames(sseDataFrames(complete.slice(0, cut)), id)
          if (message) return { ...base, message, excerpt: excerptOf(text) }
        }
      }
    }
    text += decoder.decode()
  } finally {
    reader.cancel().catch(() => {})
  }
  let message: JsonRpcMessage | undefined
  if (sse || /^\s*(event|data|id|retry|:)/.test(text)) message = answerInFrames(sseDataFrames(text), id)
  if (!message) {
    try {
      message = findJsonRpcAnswer(JSON.parse(text), id)
    } catch {
      // not JSON
    }
  }
  return { ...base, message, excerpt: excerptOf(text) }
}

function answerInFrames(frames: string[], id: string | number): JsonRpcMessage | undefined {
  for (const frame of frames) {
    try {
      const found = findJsonRpcAnswer(JSON.parse(frame), id)
      if (found) return found
    } catch {
      // a frame that is not JSON (keep-alive, comment)
    }
  }
  return undefined
}

export function excerptOf(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

/** A probe answer from an HTTP answer to a JSON-RPC request. */
export function probeAnswerFromHttp(answer: JsonRpcHttpAnswer): ProbeAnswer {
  const { status, message } = answer
  if (message && 'error' in message && message.error !== undefined) {
    const error = isObject(message.error) ? message.error : {}
    return {
      kind: 'jsonrpc-error',
      httpStatus: status,
      code: typeof error.code === 'number' ? error.code : NaN,
      message: typeof error.message === 'string' ? error.message : '',
    }
  }
  if (message && 'result' in message) {
    return { kind: 'result', httpStatus: status, isError: isObject(message.result) && message.result.isError === true }
  }
  if (status < 200 || status >= 300) return { kind: 'http-error', httpStatus: status, body: answer.excerpt }
  return { kind: 'invalid', httpStatus: status, detail: answer.excerpt ? `body: ${answer.excerpt}` : 'empty body' }
}

// ---------------------------------------------------------------------------------------------
// Probing.

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
      { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'toolroom-compliance', version: '1' } } },
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
    if (sessionId) {
      await options
        .fetch(mcpUrl, { method: 'DELETE', headers, signal: options.signal }, limits)
        .then((r) => r.body?.cancel())
        .catch(() => {})
    }
  }
}
