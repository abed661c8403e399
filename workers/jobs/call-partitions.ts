import { maintainCallPartitions } from '@/lib/call-log/maintain-call-partitions'
import { callPartitionsJob } from '@/lib/jobs/job-contracts'
import { defineJob } from '../define-job'

// Hourly: the call log's days ahead exist, the days past retention are gone (docs/design/call-log.md).
export default defineJob(callPartitionsJob, async () => {
  const { created, dropped, kept } = await maintainCallPartitions()
  if (created.length || dropped.length) console.log(`[worker] call log: created ${created.join(', ') || 'none'}; dropped ${dropped.join(', ') || 'none'}`)
  for (const k of kept)
    console.warn(`[worker] call log: kept ${k.partition} past TOOLROOM_CALL_RETENTION_DAYS: ${k.waitingCalls} of its calls wait for approval or execution`)
})
