import { enqueueDiscoveryOfEverything } from '@/lib/discovery/schedule-discovery'
import { discoverySweepJob } from '@/lib/jobs/job-contracts'
import { refreshToolStatus } from '@/lib/tools/refresh-tool-status'
import { defineJob } from '../define-job'

// Periodic rediscovery of every image and server, so drift is noticed without a deploy.
export default defineJob(discoverySweepJob, async () => {
  const queued = await enqueueDiscoveryOfEverything('periodic')
  console.log(`[worker] sweep queued ${queued} discoveries`)
  // Every Tool's status, too: what no write announces (DNS, the outbound policy) is caught here.
  const status = await refreshToolStatus({ all: true })
  console.log(`[worker] tool status: ${status.changed} of ${status.checked} tools changed`)
})
