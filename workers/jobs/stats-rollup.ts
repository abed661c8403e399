import { statsRollupJob } from '@/lib/jobs/job-contracts'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { defineJob } from '../define-job'

// Every minute: the hours whose calls changed, then the 7-day totals and Tool status fields.
export default defineJob(statsRollupJob, async () => {
  const result = await rollupCallStats()
  if (!result.ran) console.log('[worker] stats rollup: another worker holds the lock')
  else if (result.hoursRecomputed > 0 || result.totalsChanged)
    console.log(`[worker] stats rollup: ${result.hoursRecomputed} hours, totals ${result.totalsChanged ? 'changed' : 'unchanged'}, ${result.toolsUpdated} tools updated in ${result.ms} ms`)
})
