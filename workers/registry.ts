// Every job this worker process runs.
import approvalsMaintain from './jobs/approvals-maintain'
import callPartitions from './jobs/call-partitions'
import deliverWebhook from './jobs/deliver-webhook'
import discoverySweep from './jobs/discovery-sweep'
import executeApprovedCall from './jobs/execute-approved-call'
import forgetAttempts from './jobs/forget-attempts'
import introspectImage from './jobs/introspect-image'
import introspectMcpServer from './jobs/introspect-mcp-server'
import statsRollup from './jobs/stats-rollup'
import type { JobDefinition } from './define-job'

export const JOBS: JobDefinition[] = [
  introspectImage,
  introspectMcpServer,
  discoverySweep,
  statsRollup,
  approvalsMaintain,
  deliverWebhook,
  executeApprovedCall,
  forgetAttempts,
  callPartitions,
] as JobDefinition[]
