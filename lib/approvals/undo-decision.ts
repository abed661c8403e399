// An approver takes a decision back while it has not taken effect (`effectiveAt`, a few seconds
// after it was made): the request is pending again, as if nobody had decided. One conditional
// UPDATE, which requires the execution not to have been claimed; the worker's claim requires the
// decision to have taken effect and to be the one its job was queued for. Both are row updates on
// the same request, so PostgreSQL orders them: an undo and an execution never both happen
// (docs/design/approvals.md#undo).
import 'server-only'
import { type AuditActor, recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { publishWebhookEvent } from '@/lib/webhooks/publish-webhook-event'
import { type ApprovalView, toApprovalView } from './approval-view'

export interface UndoInput {
  id: string
  actor: AuditActor
  requestId?: string
}

export async function undoDecision(input: UndoInput): Promise<ApprovalView> {
  const row = await prisma.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<ApprovalRequest[]>`SELECT * FROM "ApprovalRequest" WHERE id = ${input.id}::uuid`
    if (!before) throw notFound(`approval "${input.id}"`)
    const [undone] = await tx.$queryRaw<ApprovalRequest[]>`
      UPDATE "ApprovalRequest"
         SET status = 'pending', "decidedAt" = NULL, "decidedById" = NULL, "decidedByName" = NULL, comment = NULL,
             execution = NULL, "effectiveAt" = NULL, "decisionVersion" = "decisionVersion" + 1
       WHERE id = ${input.id}::uuid AND status IN ('approved', 'denied') AND "effectiveAt" > now()
         AND (execution IS NULL OR execution = 'queued')
       RETURNING *`
    if (!undone) throw await whyNot(input.id)
    await tx.toolCall.updateMany({
      where: { id: undone.callId },
      data: { outcome: 'pending_approval', finishedAt: null, errorCode: null, errorMessage: null },
    })
    await recordAuditEvent(
      {
        actor: input.actor,
        action: 'approval.undone',
        kind: 'ToolCall',
        namespace: undone.agentNamespace,
        resource: undone.toolId,
        resourceId: undone.callId,
        before: { status: before.status, decidedBy: before.decidedByName },
        after: { status: 'pending' },
        detail: { approvalId: undone.id, agent: undone.agentName, undoneDecisionVersion: before.decisionVersion },
        requestId: input.requestId,
      },
      tx,
    )
    return undone
  })
  await publishWebhookEvent('approval.requested', { approval: toApprovalView(row) }).catch((e) =>
    console.error(`[approvals] webhook for undone approval ${row.id} not queued: ${(e as Error).message}`),
  )
  return toApprovalView(row)
}

async function whyNot(id: string): Promise<AppError> {
  const row = await prisma.approvalRequest.findUnique({ where: { id } })
  if (!row) return notFound(`approval "${id}"`)
  if (row.status === 'pending') return new AppError('CONFLICT', `approval "${id}" is pending: there is no decision to undo`)
  if (row.status === 'expired') return new AppError('CONFLICT', `approval "${id}" expired: there is no decision to undo`)
  if (row.execution && row.execution !== 'queued')
    return new AppError('CONFLICT', `approval "${id}" can no longer be undone: the approved call is ${row.execution}`)
  const when = row.effectiveAt ? ` at ${row.effectiveAt.toISOString()}` : ''
  return new AppError('CONFLICT', `approval "${id}" can no longer be undone: the decision (${row.status}) took effect${when}`)
}
