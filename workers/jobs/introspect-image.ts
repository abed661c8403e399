import { runImageDiscovery } from '@/lib/discovery/run-image-discovery'
import { introspectImageJob } from '@/lib/jobs/job-contracts'
import { countDiscoveryRun } from '@/lib/observability/metrics'
import { defineJob } from '../define-job'

export default defineJob(introspectImageJob, async (payload, { attempt }) => {
  const { status, error } = await runImageDiscovery({ ...payload, attempt })
  countDiscoveryRun('image', status)
  console.log(`[worker] image ${payload.kind} ${payload.id} (${payload.trigger}): ${status}${error ? ` (${error})` : ''}`)
})
