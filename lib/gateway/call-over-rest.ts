// The REST equivalent of `tools/call` for callers that do not speak MCP: the same pipeline and
// record (channel `rest`). A result answers 200 `{callId, result}`; a refusal or failure answers
// problem+json whose status follows what happened (the JSON-RPC code is kept as `rpcCode`, with its
// `data`): a tool that is unknown, not available to the agent or not run by the gateway → 404, a
// call a Policy refuses → 403,
// invalid arguments → 422, -32029 → 429 (Retry-After), -32009 → 409, a failed tool → 502 (type
// upstream-token-unavailable when the upstream's authorization server refused a token). (Over MCP
// invalid arguments are a tool result with isError instead: lib/gateway/mcp-call-answer.ts.)
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { PROBLEM_CONTENT_TYPE } from '@/lib/errors/problem'
import { callTool } from './call-tool'
import { RPC } from './tool-errors'

const NOT_AVAILABLE = { status: 404, title: 'Tool not available', type: 'tool-not-available' }
// The tool is the agent's, but a Policy refuses this call (docs/design/policy.md).
const POLICY_DENIED = { status: 403, title: 'Refused by a policy', type: 'policy-denied' }
// The upstream was never called: its authorization server would not issue a token (lib/gateway/upstream-credential.ts).
const NO_UPSTREAM_TOKEN = { status: 502, title: 'No access token for the upstream', type: 'upstream-token-unavailable' }
const STATUS: Record<number, { status: number; title: string; type: string }> = {
  [RPC.METHOD_NOT_FOUND]: NOT_AVAILABLE,
  [RPC.INVALID_PARAMS]: { status: 422, title: 'Invalid arguments', type: 'invalid-arguments' },
  [RPC.RATE_LIMITED]: { status: 429, title: 'Rate limited', type: 'rate-limited' },
  [RPC.IN_PROGRESS]: { status: 409, title: 'Still in progress', type: 'in-progress' },
  [RPC.INVALID_REQUEST]: { status: 400, title: 'Bad request', type: 'bad-request' },
}

export async function callOverRest(
  agent: AgentIdentity,
  toolId: string,
  args: Record<string, unknown>,
  idempotencyKey: string | undefined,
  requestId: string,
  instance: string,
  waitForApprovalSeconds?: number,
): Promise<Response> {
  const waitForApprovalMs = waitForApprovalSeconds === undefined ? undefined : waitForApprovalSeconds * 1000
  const answer = await callTool({ agent, channel: 'rest', requestId, waitForApprovalMs }, toolId, args, idempotencyKey)
  if ('result' in answer) return Response.json({ callId: answer.callId, result: answer.result })
  const { code, message, data } = answer.error
  const kind =
    data.outcome === 'denied' && typeof data.policy === 'string'
      ? POLICY_DENIED
      : data.outcome === 'denied' && code === RPC.INVALID_PARAMS
        ? NOT_AVAILABLE
        : data.authorizationServer !== undefined
          ? NO_UPSTREAM_TOKEN
          : (STATUS[code] ?? { status: 502, title: 'Tool call failed', type: 'tool-call-failed' })
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE }
  if (code === RPC.RATE_LIMITED && typeof data.retryAfterSeconds === 'number') headers['retry-after'] = String(data.retryAfterSeconds)
  const body = {
    type: `https://toolroom.dev/problems/${kind.type}`,
    title: kind.title,
    status: kind.status,
    detail: message,
    instance,
    requestId,
    callId: answer.callId,
    rpcCode: code,
    data,
  }
  return new Response(JSON.stringify(body), { status: kind.status, headers })
}
