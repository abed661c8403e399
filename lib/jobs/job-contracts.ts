// Every background job, defined once: its queue name, payload schema and queue policy. The web
// process enqueues through these; workers/ attaches a handler to each.
import { z } from 'zod'

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
}

const defineContract = <S extends z.ZodType>(contract: JobContract<S>) => contract

export const DISCOVERY_TRIGGERS = ['created', 'rotation', 'changed', 'manual', 'periodic'] as const
const trigger = z.enum(DISCOVERY_TRIGGERS)

export const introspectImageJob = defineContract({
  name: 'discovery.introspect-image',
  schema: z.strictObject({ kind: z.enum(['Agent', 'Unit']), id: z.string().uuid(), trigger }),
  singletonKey: (p) => `${p.kind}:${p.id}`,
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: Number(process.env.TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS ?? 120),
})

export const introspectMcpServerJob = defineContract({
  name: 'discovery.introspect-mcp-server',
  schema: z.strictObject({ id: z.string().uuid(), trigger }),
  singletonKey: (p) => p.id,
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: Number(process.env.TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS ?? 120),
})

export const discoverySweepJob = defineContract({
  name: 'discovery.sweep',
  schema: z.strictObject({}),
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: 300,
  cron: process.env.TOOLROOM_DISCOVERY_CRON ?? '*/15 * * * *',
})

// Statistics: recompute the hours whose calls changed, the 7-day totals and Tool status fields.
// Singleton so a slow run is never joined by a second one (the rollup also takes an advisory lock).
export const statsRollupJob = defineContract({
  name: 'stats.rollup',
  schema: z.strictObject({}),
  singletonKey: () => 'stats.rollup',
  retryLimit: 0,
  retryDelaySeconds: 0,
  expireInSeconds: Number(process.env.TOOLROOM_STATS_JOB_EXPIRY_SECONDS ?? 900),
  cron: process.env.TOOLROOM_STATS_CRON ?? '* * * * *',
})

export const JOB_CONTRACTS: JobContract[] = [introspectImageJob, introspectMcpServerJob, discoverySweepJob, statsRollupJob]
