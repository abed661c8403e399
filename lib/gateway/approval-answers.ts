// What an agent hears about a call that waits for approval: at once, `approval_required` with the
// call id; later (toolroom.approval_status, a repeat with the same idempotency key, or a call that
// chose to wait) the decision and, once the call ran, its result.
import 'server-only'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { openApprovedAnswer } from '@/lib/approvals/execute-approved-call'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { RPC } from './tool-errors'

export type ApprovalAnswer = { result: CallToolResult } | { error: { code: number; message: string; data: Record<string, unknown> } }

/** Longest a call may wait for its decision; a waiting call holds a connection. */
export const MAX_APPROVAL_WAIT_MS = 120_000
/** How long a call waits unless it asks otherwise (TOOLROOM_APPROVAL_WAIT_SECONDS, which lib/config.ts bounds by the same 120 s). */
export const defaultApprovalWaitMs = () => config().TOOLROOM_APPROVAL_WAIT_SECONDS * 1000

// isError: SDK clients then skip checking the notice against the tool's outputSchema, which it could never satisfy.
export function approvalRequired(callId: string, tool: Pick<EffectiveTool, 'name' | 'sideEffects'>, status = 'pending', expiresAt?: Date): CallToolResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `${tool.name} needs a person's approval before it runs (status: ${status}). The call is recorded as ${callId}; ask toolroom.approval_status for its decision, or repeat the call with the same idempotency key.`,
      },
    ],
    structuredContent: {
      status: 'approval_required',
      approvalStatus: status,
      callId,
      tool: tool.name,
      level: tool.sideEffects.level,
      ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
      pollWith: 'toolroom.approval_status',
    },
  }
}

/**
 * The answer a call held for approval has now: its result once it ran, the refusal once denied or
 * expired, otherwise `approval_required` with where the request stands. Null when no request exists.
 */
export async function currentApprovalAnswer(callId: string, tool: Pick<EffectiveTool, 'name' | 'sideEffects'>): Promise<ApprovalAnswer | null> {
  const approval = await prisma.approvalRequest.findUnique({ where: { callId } })
  if (!approval) return null
  // A denial the approver may still undo is not yet the agent's answer (docs/design/approvals.md#undo).
  const undoable = approval.effectiveAt !== null && approval.effectiveAt.getTime() > Date.now()
  if (approval.status === 'denied' && undoable) return { result: approvalRequired(callId, tool, 'pending', approval.expiresAt) }
  if (approval.status === 'denied' || approval.status === 'expired') {
    const by = approval.status === 'denied' ? ` by ${approval.decidedByName ?? 'an approver'}${approval.comment ? `: ${approval.comment}` : ''}` : ''
    return {
      error: {
        code: RPC.INVALID_REQUEST,
        message: `the call of ${tool.name} was ${approval.status}${by}; it did not run`,
        data: {
          outcome: approval.status === 'denied' ? 'rejected' : 'expired',
          callId,
          approvalStatus: approval.status,
          decidedAt: approval.decidedAt?.toISOString() ?? null,
        },
      },
    }
  }
  if (approval.execution === 'succeeded' || approval.execution === 'failed') {
    const answer = openApprovedAnswer(approval) as ApprovalAnswer | undefined
    if (answer) return answer
    return { error: { code: RPC.INTERNAL_ERROR, message: approval.executionError ?? 'the approved call failed', data: { outcome: 'failed', callId } } }
  }
  return { result: approvalRequired(callId, tool, approval.status === 'approved' ? 'approved, running' : 'pending', approval.expiresAt) }
}

/** How often a waiting call tells its caller it is still waiting (notifications/progress), so the connection is not silent. */
const PROGRESS_EVERY_MS = 1_000

/**
 * Waits (polling the request) until the call has an answer other than `approval_required`, or the
 * time is up. With `progress`, reports every second how long it has waited and where the request stands.
 */
export async function waitForApprovalAnswer(
  callId: string,
  tool: Pick<EffectiveTool, 'name' | 'sideEffects'>,
  waitMs: number,
  signal?: AbortSignal,
  progress?: (report: { progress: number; total?: number; message?: string }) => void,
): Promise<ApprovalAnswer | null> {
  const started = Date.now()
  const budget = Math.min(waitMs, MAX_APPROVAL_WAIT_MS)
  const deadline = started + budget
  let last: ApprovalAnswer | null = null
  let reported = started
  for (let delay = 100; Date.now() < deadline && !signal?.aborted; delay = Math.min(delay * 2, 500)) {
    await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(0, deadline - Date.now()))))
    last = await currentApprovalAnswer(callId, tool)
    const waiting = last && 'result' in last && (last.result.structuredContent as { status?: string } | undefined)?.status === 'approval_required'
    if (last && !waiting) return last
    if (progress && Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now()
      const status = (last && 'result' in last && (last.result.structuredContent as { approvalStatus?: string } | undefined)?.approvalStatus) || 'pending'
      const waited = Math.round((reported - started) / 1000)
      progress({
        progress: waited,
        total: Math.round(budget / 1000),
        message: `waiting for a person to approve ${tool.name} (${status}, ${waited} s of ${Math.round(budget / 1000)} s; call ${callId})`,
      })
    }
  }
  return last
}
