import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { introspectMcpServerJob } from '@/lib/jobs/job-contracts'
import { countDiscoveryRun } from '@/lib/observability/metrics'
import { defineJob } from '../define-job'

export default defineJob(introspectMcpServerJob, async (payload, { attempt }) => {
  const { status, error } = await runMcpDiscovery({ ...payload, attempt })
  countDiscoveryRun('mcp', status)
  console.log(`[worker] MCP server ${payload.id} (${payload.trigger}): ${status}${error ? ` (${error})` : ''}`)
})
