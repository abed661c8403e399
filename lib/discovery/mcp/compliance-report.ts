// The LanguageTool checklist report, built from observations by pure functions (no I/O).

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
  // 2026-07-28 has no initialize: server/discover is what answered.
  const opening = protocolVersion && protocolVersion >= '2026-07-28' ? 'server/discover' : 'initialize'
  return item('json-rpc', 'pass', `${opening} answered over ${transport}${who}${protocolVersion ? `, protocol ${protocolVersion}` : ''}`)
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
