import { executeApprovedCall } from '@/lib/approvals/execute-approved-call'
import { isSafeToRepeat, runApprovedCall } from '@/lib/gateway/call-tool'
import { updateCallOutcome } from '@/lib/gateway/record-call'
import { executeApprovedCallJob } from '@/lib/jobs/job-contracts'
import { defineJob } from '../define-job'

// Runs a call once a person approved it, through the gateway's executors.
export default defineJob(executeApprovedCallJob, async ({ approvalId }, { attempt }) => {
  await executeApprovedCall(approvalId, attempt, {
    run: (approval, args, key) => runApprovedCall(approval, (args ?? {}) as Record<string, unknown>, key),
    safeToRepeat: (approval) => isSafeToRepeat(approval),
    abandon: (approval, reason) => updateCallOutcome(approval.callId, { outcome: 'failed', errorCode: 'interrupted', errorMessage: reason, latencyMs: null, attempts: 1, result: null }),
  })
})
