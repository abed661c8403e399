import { executeApprovedCall } from '@/lib/approvals/execute-approved-call'
import { isSafeToRepeat, runApprovedCall } from '@/lib/gateway/call-tool'
import { updateCallOutcome } from '@/lib/gateway/record-call'
import { executeApprovedCallJob } from '@/lib/jobs/job-contracts'
import { withLogContext } from '@/lib/observability/logger'
import { withSpan } from '@/lib/observability/tracing'
import { defineJob } from '../define-job'

// Runs a call once a person approved it, through the gateway's executors.
export default defineJob(executeApprovedCallJob, async ({ approvalId, decisionVersion }, { attempt }) => {
  const result = await executeApprovedCall(
    approvalId,
    attempt,
    {
      // Its span links back to the call that asked for approval (another trace, minutes or hours earlier).
      run: (approval, args, key) =>
        withLogContext({ callId: approval.callId }, () =>
          withSpan(
            'toolroom.approvals.execute',
            {
              links: [approval.traceparent],
              attributes: { 'toolroom.approval_id': approval.id, 'toolroom.call_id': approval.callId, 'toolroom.tool': approval.toolId },
            },
            () => runApprovedCall(approval, (args ?? {}) as Record<string, unknown>, key),
          ),
        ),
      safeToRepeat: (approval) => isSafeToRepeat(approval),
      abandon: (approval, reason) =>
        updateCallOutcome(approval.callId, { outcome: 'failed', errorCode: 'interrupted', errorMessage: reason, latencyMs: null, attempts: 1, result: null }),
    },
    decisionVersion,
  )
  // Started before the decision took effect (the clocks of this host and the database differ): the
  // retry, a few seconds on, finds it due.
  if (result === 'not-yet') throw new Error(`approval ${approvalId} can still be undone; retrying once its decision takes effect`)
})
