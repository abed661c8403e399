// Every background job, defined once: its queue name, payload schema and queue policy. The web
// process enqueues through these; workers/ attaches a handler to each. Settings from the environment
// are getters: read from lib/config.ts when a queue is set up, not when this module is imported.
import 'server-only'
import { z } from 'zod'
import { config } from '@/lib/config'
import { DISCOVERY_TRIGGERS } from './discovery-triggers'

export interface JobContract<S extends z.ZodType = z.ZodType> {
  name: string
  schema: S
  /** At most one job waiting and one running per key (pg-boss "stately" policy). */
  singletonKey?: (payload: z.output<S>) => string
  retryLimit: number
  retryDelaySeconds: number
  /** A job whose worker died is retried once this much time has passed. */
  expireInSeconds: number
  /** Cron schedule for periodic jobs. */
  cron?: string
  /** How often an idle worker asks for this job; default TOOLROOM_WORKER_POLL_SECONDS. */
  pollSeconds?: number
  /** Workers are told of each job as it is queued (lib/jobs/job-arrivals.ts), not left to find it at their next poll. */
  announce?: boolean
  /**
   * Safe to run again from the start: a stopping worker hands a running job of this kind back to the
   * queue at once (workers/take-jobs.ts) instead of waiting for it.
   */
  releaseOnStop?: boolean
}

const defineContract = <S extends z.ZodType>(contract: JobContract<S>) => contract

const trigger = z.enum(DISCOVERY_TRIGGERS)

export const introspectImageJob = defineContract({
  name: 'discovery.introspect-image',
  schema: z.strictObject({ kind: z.enum(['Agent', 'Unit']), id: z.string().uuid(), trigger }),
  singletonKey: (p) => `${p.kind}:${p.id}`,
  // Discovery reads and then writes its result in one transaction: starting over loses nothing.
  releaseOnStop: true,
  retryLimit: 2,
  retryDelaySeconds: 10,
  get expireInSeconds() {
    return config().TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS
  },
})

export const introspectMcpServerJob = defineContract({
  name: 'discovery.introspect-mcp-server',
  schema: z.strictObject({ id: z.string().uuid(), trigger }),
  singletonKey: (p) => p.id,
  releaseOnStop: true,
  retryLimit: 2,
  retryDelaySeconds: 10,
  get expireInSeconds() {
    return config().TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS
  },
})

export const discoverySweepJob = defineContract({
  name: 'discovery.sweep',
  schema: z.strictObject({}),
  releaseOnStop: true,
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 300,
  get cron() {
    return config().TOOLROOM_DISCOVERY_CRON
  },
})

/**
 * Runs one approved call; a singleton per decision, so a re-queued hand-off cannot run it twice. The
 * decision's version tells a job queued before an undo that it is stale; jobs queued before versions
 * existed carry none.
 */
export const executeApprovedCallJob = defineContract({
  name: 'approvals.execute',
  schema: z.strictObject({ approvalId: z.string().uuid(), decisionVersion: z.number().int().min(0).optional() }),
  singletonKey: (p) => (p.decisionVersion === undefined ? p.approvalId : `${p.approvalId}:${p.decisionVersion}`),
  // An approver (and perhaps the agent) waits to see the call run: workers are told at once, and ask
  // often in case a notification was lost.
  announce: true,
  pollSeconds: 0.2,
  retryLimit: 3,
  retryDelaySeconds: 5,
  get expireInSeconds() {
    return config().TOOLROOM_APPROVED_CALL_EXPIRY_SECONDS
  },
})

/** Closes expired requests and re-queues approved calls whose hand-off was lost. */
export const approvalsMaintenanceJob = defineContract({
  name: 'approvals.maintain',
  schema: z.strictObject({}),
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 120,
  get cron() {
    return config().TOOLROOM_APPROVALS_CRON
  },
})

export const deliverWebhookJob = defineContract({
  name: 'webhooks.deliver',
  schema: z.strictObject({ deliveryId: z.string().uuid() }),
  singletonKey: (p) => p.deliveryId,
  get retryLimit() {
    return config().TOOLROOM_WEBHOOK_RETRIES
  },
  // Doubles on each retry (5 s, 10 s, 20 s, …): about five minutes in all with the default six.
  get retryDelaySeconds() {
    return config().TOOLROOM_WEBHOOK_RETRY_DELAY_SECONDS
  },
  expireInSeconds: 60,
})

// Statistics: recompute the hours whose calls changed, the 7-day totals and Tool status fields.
// Singleton so a slow run is never joined by a second one (the rollup also takes an advisory lock).
export const statsRollupJob = defineContract({
  name: 'stats.rollup',
  schema: z.strictObject({}),
  singletonKey: () => 'stats.rollup',
  releaseOnStop: true,
  retryLimit: 0,
  retryDelaySeconds: 0,
  get expireInSeconds() {
    return config().TOOLROOM_STATS_JOB_EXPIRY_SECONDS
  },
  get cron() {
    return config().TOOLROOM_STATS_CRON
  },
})

/** Deletes closed windows of the failed-attempt limits (lib/auth/failed-attempts.ts). */
export const forgetAttemptsJob = defineContract({
  name: 'auth.forget-attempts',
  schema: z.strictObject({}),
  singletonKey: () => 'auth.forget-attempts',
  releaseOnStop: true,
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 300,
  cron: '*/10 * * * *',
})

/** Creates the call log's partitions ahead and drops the days past retention (docs/design/call-log.md). */
export const callPartitionsJob = defineContract({
  name: 'calls.partitions',
  schema: z.strictObject({}),
  singletonKey: () => 'calls.partitions',
  // Creating and dropping days can start over: a detach cut short is finished by the next run.
  releaseOnStop: true,
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 3600,
  get cron() {
    return config().TOOLROOM_CALL_PARTITIONS_CRON
  },
})

export const JOB_CONTRACTS: JobContract[] = [
  introspectImageJob,
  introspectMcpServerJob,
  discoverySweepJob,
  statsRollupJob,
  executeApprovedCallJob,
  approvalsMaintenanceJob,
  deliverWebhookJob,
  forgetAttemptsJob,
  callPartitionsJob,
]
