// Runs an approved call exactly once. The worker first claims the request (queued → running in one
// conditional UPDATE), so a duplicate job finds nothing to do; only a claimed request is executed.
// A worker that died while running a call leaves it `running`: the retried job runs it again only
// when the tool is safe to repeat (read-only or idempotent), otherwise it is closed as failed with
// the reason, because running a side effect twice is worse than asking the agent to call again.
import 'server-only'
import { prisma } from '@/lib/db'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'
import { db, sql } from '@/lib/sql'
import { asApprovalRow } from './approval-row'

export interface ApprovedCallOutcome {
  ok: boolean
  error?: string
  /** What the agent gets back (an MCP tool result or a JSON-RPC error), kept sealed for it. */
  answer?: unknown
}

export interface ApprovedCallRunner {
  /** Executes the tool with the original arguments (and idempotency key, if any) and records the outcome on the call. */
  run: (approval: ApprovalRequest, args: unknown, idempotencyKey: string | null) => Promise<ApprovedCallOutcome>
  /** May this call be run a second time (read-only or idempotent tool)? */
  safeToRepeat: (approval: ApprovalRequest) => Promise<boolean>
  /** Closes the call's record when it will not run. */
  abandon: (approval: ApprovalRequest, reason: string) => Promise<void>
}

/** `not-yet`: the decision can still be undone (the job started early); `superseded`: the job was queued for a decision since undone. */
export type ExecutionResult = 'executed' | 'already-done' | 'abandoned' | 'not-approved' | 'not-yet' | 'superseded'

/**
 * `decisionVersion` is the decision the job was queued for (absent in jobs queued before versions
 * existed). The claim re-checks, in the same UPDATE, that this decision still stands and has taken
 * effect, so an undo (lib/approvals/undo-decision.ts) and this claim never both succeed.
 */
export async function executeApprovedCall(approvalId: string, attempt: number, runner: ApprovedCallRunner, decisionVersion?: number): Promise<ExecutionResult> {
  const version = decisionVersion ?? null
  const claimed = await db
    .updateTable('ApprovalRequest')
    .set({ execution: 'running', executedAt: sql<Date>`now()` })
    .where('id', '=', approvalId)
    .where('status', '=', 'approved')
    .where('execution', '=', 'queued')
    .where((eb) => eb.or([eb('effectiveAt', 'is', null), eb('effectiveAt', '<=', sql<Date>`now()`)]))
    .$if(version !== null, (q) => q.where('decisionVersion', '=', version!))
    .returningAll()
    .executeTakeFirst()
    .then((row) => row && asApprovalRow(row))
  let approval = claimed
  if (!approval) {
    const row = await prisma.approvalRequest.findUnique({ where: { id: approvalId } })
    if (version !== null && row && row.decisionVersion !== version) return 'superseded'
    if (!row || row.status !== 'approved') return 'not-approved'
    if (row.execution === 'queued') return 'not-yet'
    if (row.execution !== 'running' || attempt <= 1) return 'already-done'
    // A previous attempt died mid-call.
    if (!(await runner.safeToRepeat(row))) {
      const reason =
        'the worker running this approved call stopped before it finished; it was not repeated because the tool is neither read-only nor idempotent, so its side effect may or may not have happened'
      await finish(row.id, 'failed', reason)
      await runner.abandon(row, reason)
      return 'abandoned'
    }
    approval = row
  }
  const sealed = approval.argsSealed && approval.argsKeyId ? openSecretValues(approval.argsSealed, approval.argsKeyId) : null
  const outcome = await runner.run(approval, sealed ? JSON.parse(sealed.args) : {}, sealed?.key ?? null)
  await finish(approval.id, outcome.ok ? 'succeeded' : 'failed', outcome.error ?? null, outcome.answer)
  return 'executed'
}

async function finish(id: string, execution: 'succeeded' | 'failed', error: string | null, answer?: unknown) {
  const sealed = answer === undefined ? null : sealSecretValues({ answer: JSON.stringify(answer) })
  await prisma.approvalRequest.update({
    where: { id },
    data: {
      execution,
      executionError: error,
      executedAt: new Date(),
      argsSealed: null,
      argsKeyId: null,
      // The person's subject token is needed no more once the call has run (or will not).
      subjectSealed: null,
      subjectKeyId: null,
      ...(sealed ? { resultSealed: new Uint8Array(sealed.ciphertext), resultKeyId: sealed.keyId } : {}),
    },
  })
}

/** The sealed answer of an executed approved call, for the agent that made it. */
export function openApprovedAnswer(approval: Pick<ApprovalRequest, 'resultSealed' | 'resultKeyId'>): unknown {
  if (!approval.resultSealed || !approval.resultKeyId) return undefined
  return JSON.parse(openSecretValues(approval.resultSealed, approval.resultKeyId).answer)
}
