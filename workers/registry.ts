// Every job this worker process runs.
import discoverySweep from './jobs/discovery-sweep'
import introspectImage from './jobs/introspect-image'
import introspectMcpServer from './jobs/introspect-mcp-server'
import statsRollup from './jobs/stats-rollup'
import type { JobDefinition } from './define-job'

export const JOBS: JobDefinition[] = [introspectImage, introspectMcpServer, discoverySweep, statsRollup] as JobDefinition[]
