// An approver takes a decision back while it has not taken effect (`effectiveAt`, a few seconds
// after it was made): the request is pending again, as if nobody had decided. One conditional
// UPDATE, which requires the execution not to have been claimed; the worker's claim requires the
// decision to have taken effect and to be the one its job was queued for. Both are row updates on
// the same request, so PostgreSQL orders them: an undo and an execution never both happen
// (docs/design/approvals.md#undo).
//
// Only whoever made the decision (signed in, or with one of their own tokens) or an admin takes it
// back: another approver undoing it would silently turn a colleague's deny into a pending request
// they can then approve themselves.
import 'server-only'
import { type Actor, isAllowed } from '@/lib/auth/access-rules'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import { sql, sqlIn } from '@/lib/sql'
import { publishWebhookEvent } from '@/lib/webhooks/publish-webhook-event'
import { asApprovalRow } from './approval-row'
import { type ApprovalView, toApprovalView } from './approval-view'

export interface UndoInput {
  id: string
  actor: Actor
  requestId?: string
}

/**
 * Whose decisions `actor` may undo: null for an admin (anyone's); otherwise the person behind the
 * actor, and a decision counts as theirs when it was made signed in as them or with one of their tokens.
 */
export function undoingPerson(actor: Actor): { actorId: string; userId: string | null } | null {
  if (isAllowed(actor, 'admin')) return null
  return { actorId: actor.id, userId: actor.kind === 'user' ? actor.id : (actor.userId ?? null) }
}

export async function undoDecision(input: UndoInput): Promise<ApprovalView> {
  const person = undoingPerson(input.actor)
  const row = await prisma.$transaction(async (tx) => {
    // Locked, so the decision checked against the person is the one the UPDATE takes back.
    const before = await sqlIn(tx)
      .selectFrom('ApprovalRequest')
      .selectAll()
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst()
      .then((row) => row && asApprovalRow(row))
    if (!before) throw notFound(`approval "${input.id}"`)
    if (person && before.decidedById && !(await decidedBy(tx, before.decidedById, person)))
      throw new AppError('FORBIDDEN', `approval "${input.id}" was decided by ${before.decidedByName ?? 'someone else'}: only they or an admin can undo it`)
    const undone = await sqlIn(tx)
      .updateTable('ApprovalRequest')
      .set((eb) => ({
        status: 'pending',
        decidedAt: null,
        decidedById: null,
        decidedByName: null,
        comment: null,
        execution: null,
        effectiveAt: null,
        decisionVersion: eb('decisionVersion', '+', 1),
      }))
      .where('id', '=', input.id)
      .where('status', 'in', ['approved', 'denied'])
      .where('effectiveAt', '>', sql<Date>`now()`)
      .where((eb) => eb.or([eb('execution', 'is', null), eb('execution', '=', 'queued')]))
      .returningAll()
      .executeTakeFirst()
      .then((row) => row && asApprovalRow(row))
    if (!undone) throw await whyNot(input.id)
    await tx.toolCall.updateMany({
      where: { id: undone.callId },
      data: { outcome: 'pending_approval', finishedAt: null, errorCode: null, errorMessage: null },
    })
    await recordAuditEvent(
      {
        actor: auditActorOf(input.actor),
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

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0]

async function decidedBy(tx: Tx, deciderId: string, person: { actorId: string; userId: string | null }): Promise<boolean> {
  if (deciderId === person.actorId || deciderId === person.userId) return true
  if (!person.userId) return false
  const ownToken = await sqlIn(tx)
    .selectFrom('ApiToken')
    .select(sql<number>`1`.as('own'))
    .where((eb) => eb(eb.cast('id', 'text'), '=', deciderId))
    .where('userId', '=', person.userId)
    .executeTakeFirst()
  return ownToken !== undefined
}
