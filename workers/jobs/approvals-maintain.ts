import { dropDeniedSubjectTokens, expireApprovals, requeueStrandedApprovals } from '@/lib/approvals/expire-approvals'
import { approvalsMaintenanceJob } from '@/lib/jobs/job-contracts'
import { defineJob } from '../define-job'

// Every minute: close what nobody decided in time, re-queue approved calls whose hand-off was lost,
// and drop the person tokens that denied requests kept.
export default defineJob(approvalsMaintenanceJob, async () => {
  const expired = await expireApprovals()
  const requeued = await requeueStrandedApprovals()
  await dropDeniedSubjectTokens()
  if (expired.length || requeued) console.log(`[worker] approvals: ${expired.length} expired, ${requeued} re-queued for execution`)
})
