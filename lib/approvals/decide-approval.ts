// An approver approves or denies a held call. The decision is one conditional UPDATE (pending →
// approved/denied), so two approvers at the same moment get one winner and the other is told who
// won. The call's record and the audit log change in the same transaction; an approved call is then
// handed to a worker, and a sweeper re-queues any approval whose hand-off was lost in a crash.
// A decision takes effect TOOLROOM_APPROVAL_UNDO_SECONDS later (`effectiveAt`): until then the
// approver may undo it, and the worker's job starts no earlier (docs/design/approvals.md#undo).
import 'server-only'
import { config } from '@/lib/config'
import { type AuditActor, recordAuditEvent } from '@/lib/audit/record-audit-event'
import { onBehalfOfOf } from '@/lib/identity/person'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { enqueue } from '@/lib/jobs/enqueue'
import { observeApprovalDecision } from '@/lib/observability/metrics'
import { executeApprovedCallJob } from '@/lib/jobs/job-contracts'
import { sql, sqlIn } from '@/lib/sql'
import { publishWebhookEvent } from '@/lib/webhooks/publish-webhook-event'
import { asApprovalRow } from './approval-row'
import { type ApprovalView, toApprovalView } from './approval-view'

export type Decision = 'approve' | 'deny'

export interface DecideInput {
  id: string
  decision: Decision
  comment?: string
  actor: AuditActor
  requestId?: string
}

export async function decideApproval(input: DecideInput): Promise<ApprovalView> {
  const row = await prisma.$transaction(async (tx) => {
    const status = input.decision === 'approve' ? 'approved' : 'denied'
    const won = await sqlIn(tx)
      .updateTable('ApprovalRequest')
      .set((eb) => ({
        status,
        decidedAt: sql<Date>`now()`,
        decidedById: input.actor.id ?? null,
        decidedByName: input.actor.name,
        comment: input.comment ?? null,
        execution: input.decision === 'approve' ? 'queued' : null,
        effectiveAt: sql<Date>`now() + make_interval(secs => ${config().TOOLROOM_APPROVAL_UNDO_SECONDS})`,
        decisionVersion: eb('decisionVersion', '+', 1),
      }))
      .where('id', '=', input.id)
      .where('status', '=', 'pending')
      .where('expiresAt', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst()
      .then((row) => row && asApprovalRow(row))
    if (!won) throw await whyNot(input.id)
    await tx.toolCall.updateMany({
      where: { id: won.callId },
      data:
        input.decision === 'approve'
          ? { outcome: 'approved' }
          : { outcome: 'rejected', finishedAt: new Date(), errorCode: 'approval_denied', errorMessage: input.comment ?? 'denied by an approver' },
    })
    await recordAuditEvent(
      {
        actor: input.actor,
        action: input.decision === 'approve' ? 'approval.approved' : 'approval.denied',
        kind: 'ToolCall',
        namespace: won.agentNamespace,
        resource: won.toolId,
        resourceId: won.callId,
        before: { status: 'pending' },
        after: { status },
        detail: {
          comment: input.comment ?? null,
          policy: won.policy,
          agent: won.agentName,
          onBehalfOf: onBehalfOfOf(won),
          approvalId: won.id,
          effectiveAt: won.effectiveAt,
          decisionVersion: won.decisionVersion,
        },
        requestId: input.requestId,
      },
      tx,
    )
    return won
  })
  observeApprovalDecision(input.decision, row.requestedAt, row.decidedAt ?? new Date())
  await afterDecision(row)
  return toApprovalView(row)
}

export interface BulkResult {
  id: string
  ok: boolean
  approval?: ApprovalView
  error?: string
}

/** One decision for many requests; each is decided on its own, so one already decided does not stop the rest. */
export async function decideApprovals(ids: string[], decision: Decision, actor: AuditActor, comment?: string, requestId?: string): Promise<BulkResult[]> {
  const results: BulkResult[] = []
  for (const id of ids) {
    try {
      results.push({ id, ok: true, approval: await decideApproval({ id, decision, comment, actor, requestId }) })
    } catch (e) {
      if (!(e instanceof AppError)) throw e
      results.push({ id, ok: false, error: e.message })
    }
  }
  return results
}

/** Hand-offs after commit. A crash here loses nothing: the sweeper re-queues approved, unexecuted calls. */
async function afterDecision(row: ApprovalRequest): Promise<void> {
  if (row.status === 'approved') await enqueueExecution(row)
  await publishWebhookEvent('approval.decided', { approval: toApprovalView(row) }).catch((e) =>
    console.error(`[approvals] webhook for approval ${row.id} not queued: ${(e as Error).message}`),
  )
}

/** The worker's job for this decision, starting when the decision takes effect (not before: it could still be undone). */
export async function enqueueExecution(row: Pick<ApprovalRequest, 'id' | 'decisionVersion' | 'effectiveAt'>): Promise<void> {
  await enqueue(executeApprovedCallJob, { approvalId: row.id, decisionVersion: row.decisionVersion }, { startAfter: row.effectiveAt ?? undefined })
}

async function whyNot(id: string): Promise<AppError> {
  const row = await prisma.approvalRequest.findUnique({ where: { id } })
  if (!row) return notFound(`approval "${id}"`)
  if (row.status === 'pending') return new AppError('CONFLICT', `approval "${id}" expired at ${row.expiresAt.toISOString()} and can no longer be decided`)
  const when = row.decidedAt ? ` at ${row.decidedAt.toISOString()}` : ''
  if (row.status === 'expired') return new AppError('CONFLICT', `approval "${id}" expired${when}`)
  return new AppError('CONFLICT', `approval "${id}" was already ${row.status} by ${row.decidedByName ?? 'someone else'}${when}`)
}
