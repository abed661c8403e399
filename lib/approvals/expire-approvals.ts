// Requests nobody decided in time are closed as expired (the call's record too), by a worker on a
// schedule. The same sweep re-queues approved calls whose hand-off to the executing worker was lost,
// and drops the subject tokens kept by requests whose denial took effect.
import 'server-only'
import { recordAuditEvents } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { enqueueMany } from '@/lib/jobs/enqueue'
import { executeApprovedCallJob } from '@/lib/jobs/job-contracts'
import { db, sql, sqlIn } from '@/lib/sql'
import { publishWebhookEvent } from '@/lib/webhooks/publish-webhook-event'
import { asApprovalRow } from './approval-row'
import { toApprovalView } from './approval-view'

const SYSTEM = { kind: 'system' as const, name: 'toolroom' }

export async function expireApprovals(now = new Date()): Promise<ApprovalRequest[]> {
  const expired = await prisma.$transaction(async (tx) => {
    const rows = (
      await sqlIn(tx)
        .updateTable('ApprovalRequest')
        .set({ status: 'expired', decidedAt: now, subjectSealed: null, subjectKeyId: null })
        .where('status', '=', 'pending')
        .where('expiresAt', '<=', now)
        .returningAll()
        .execute()
    ).map(asApprovalRow)
    if (rows.length === 0) return rows
    await tx.toolCall.updateMany({
      where: { id: { in: rows.map((r) => r.callId) } },
      data: { outcome: 'expired', finishedAt: now, errorCode: 'approval_expired', errorMessage: 'no approver decided before the request expired' },
    })
    await recordAuditEvents(
      rows.map((r) => ({
        actor: SYSTEM,
        action: 'approval.expired',
        kind: 'ToolCall',
        namespace: r.agentNamespace,
        resource: r.toolId,
        resourceId: r.callId,
        before: { status: 'pending' },
        after: { status: 'expired' },
        detail: { policy: r.policy, agent: r.agentName, approvalId: r.id, expiresAt: r.expiresAt },
      })),
      tx,
    )
    return rows
  })
  for (const row of expired)
    await publishWebhookEvent('approval.decided', { approval: toApprovalView(row) }).catch((e) => console.error(`[approvals] webhook: ${(e as Error).message}`))
  return expired
}

/**
 * Denials that took effect (no undo can bring them back to pending): the person's subject token their
 * requests kept for a run that will never come is dropped (docs/design/approvals.md#on-whose-behalf).
 */
export async function dropDeniedSubjectTokens(): Promise<number> {
  const { numUpdatedRows } = await db
    .updateTable('ApprovalRequest')
    .set({ subjectSealed: null, subjectKeyId: null })
    .where('status', '=', 'denied')
    .where('subjectSealed', 'is not', null)
    .where((eb) => eb.or([eb('effectiveAt', 'is', null), eb('effectiveAt', '<=', sql<Date>`now()`)]))
    .executeTakeFirstOrThrow()
  return Number(numUpdatedRows)
}

/**
 * Approved calls still waiting for execution `graceSeconds` after their decision took effect: their
 * job was lost; queue it again (the job is a singleton per decision).
 */
export async function requeueStrandedApprovals(graceSeconds = 30): Promise<number> {
  const before = new Date(Date.now() - graceSeconds * 1000)
  const stranded = await prisma.approvalRequest.findMany({
    where: {
      status: 'approved',
      execution: 'queued',
      OR: [{ effectiveAt: { lt: before } }, { effectiveAt: null, decidedAt: { lt: before } }],
    },
    select: { id: true, decisionVersion: true },
    take: 1000,
  })
  await enqueueMany(
    executeApprovedCallJob,
    stranded.map((r) => ({ approvalId: r.id, decisionVersion: r.decisionVersion })),
  )
  return stranded.length
}
