import { forgetExpiredAttempts } from '@/lib/auth/failed-attempts'
import { forgetAttemptsJob } from '@/lib/jobs/job-contracts'
import { defineJob } from '../define-job'

// Every ten minutes: the failed-attempt limits' closed windows go, so bogus client ids leave no rows.
export default defineJob(forgetAttemptsJob, async () => {
  const forgotten = await forgetExpiredAttempts()
  if (forgotten) console.log(`[worker] failed-attempt limits: ${forgotten} closed windows deleted`)
})
