// What `tools/list` and `tools/call` do for an agent, whichever MCP revision it speaks: both
// protocol layers (mcp-legacy.ts on SDK v1 for 2025-11-25, mcp-modern.ts on SDK v2 for 2026-07-28)
// call these, so there is one pipeline. Only how errors and progress travel differs per revision.
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { agentTools } from './agent-tools'
import { callTool, type ProgressReport } from './call-tool'
import { toMcpAnswer } from './mcp-call-answer'
import { CONNECTION_REQUIRED, urlElicitationError } from './url-elicitation'

/** A refusal with the reason kept apart from the message, so the SDK sends code, message and data as they are. */
export class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export async function listToolsFor(agent: AgentIdentity): Promise<McpTool[]> {
  return (await agentTools(agent.agentId))?.list ?? []
}

export interface ToolCallScope {
  requestId?: string
  signal: AbortSignal
  /** Sends one `notifications/progress` for the caller's progressToken (absent: the caller asked for none). */
  notifyProgress?: (report: ProgressReport) => Promise<void> | void
  /** Maps the pipeline's JSON-RPC error codes to the ones this revision may send. */
  errorCode?: (code: number) => number
  /** The client declared URL-mode elicitation: a person's missing connection is asked for as one (./url-elicitation.ts). */
  urlElicitation?: boolean
}

export async function callToolFor(
  agent: AgentIdentity,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  scope: ToolCallScope,
): Promise<CallToolResult> {
  const meta = params._meta
  const key = typeof meta?.idempotencyKey === 'string' ? meta.idempotencyKey : undefined
  const wait = meta?.['toolroom/waitForApprovalSeconds']
  const waitForApprovalMs = typeof wait === 'number' && wait >= 0 ? wait * 1000 : undefined
  const progress = scope.notifyProgress ? increasingProgress(scope.notifyProgress) : undefined
  const answer = await callTool(
    { agent, channel: 'mcp', requestId: scope.requestId, signal: scope.signal, waitForApprovalMs, progress },
    params.name,
    params.arguments ?? {},
    key,
  )
  const mcp = toMcpAnswer(answer)
  if ('error' in mcp && scope.urlElicitation && mcp.error.data?.errorCode === CONNECTION_REQUIRED) {
    const connection = mcp.error.data.connection as { url?: unknown } | undefined
    const elicitation = urlElicitationError(connection?.url, mcp.error.message, mcp.error.data)
    if (elicitation) throw new Refusal(elicitation.code, elicitation.message, elicitation.data)
  }
  if ('error' in mcp) throw new Refusal(scope.errorCode ? scope.errorCode(mcp.error.code) : mcp.error.code, mcp.error.message, mcp.error.data)
  return mcp.result
}

/**
 * MCP wants each progress value larger than the last for one token: reports that would go back (an
 * upstream retried and started over) are dropped, and a failed send never fails the call.
 */
function increasingProgress(send: (report: ProgressReport) => Promise<void> | void): (report: ProgressReport) => void {
  let last = -Infinity
  return (report) => {
    if (!(report.progress > last)) return
    last = report.progress
    Promise.resolve()
      .then(() => send(report))
      .catch(() => {})
  }
}
