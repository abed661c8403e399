import { enqueueDiscoveryOfEverything } from '@/lib/discovery/schedule-discovery'
import { discoverySweepJob } from '@/lib/jobs/job-contracts'
import { defineJob } from '../define-job'

// Periodic rediscovery of every image and server, so drift is noticed without a deploy.
export default defineJob(discoverySweepJob, async () => {
  const queued = await enqueueDiscoveryOfEverything('periodic')
  console.log(`[worker] sweep queued ${queued} discoveries`)
})
