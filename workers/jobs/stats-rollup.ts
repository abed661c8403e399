import { statsRollupJob } from '@/lib/jobs/job-contracts'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { refreshRecentlyCalledTools } from '@/lib/tools/refresh-tool-status'
import { defineJob } from '../define-job'

// Every minute: the hours whose calls changed, then the 7-day totals and Tool status fields.
export default defineJob(statsRollupJob, async () => {
  const result = await rollupCallStats()
  if (!result.ran) console.log('[worker] stats rollup: another worker holds the lock')
  else if (result.hoursRecomputed > 0 || result.totalsChanged)
    console.log(
      `[worker] stats rollup: ${result.hoursRecomputed} hours, totals ${result.totalsChanged ? 'changed' : 'unchanged'}, ${result.toolsUpdated} tools updated in ${result.ms} ms`,
    )
  // Recent failure rates move with every rollup (and leave the window as hours pass): Tool status follows.
  if (result.ran) {
    const status = await refreshRecentlyCalledTools()
    if (status.changed > 0) console.log(`[worker] tool status: ${status.changed} of ${status.checked} recently called tools changed`)
  }
})
