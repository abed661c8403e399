import type { z } from 'zod'
import { currentTraceparent } from '@/lib/observability/tracing'
import { getBoss } from './boss'
import { JOB_ARRIVALS_CHANNEL, jobArrivalPayload } from './job-arrivals'
import type { JobContract } from './job-contracts'

/**
 * Where a job carries the trace of whoever queued it (tracing on): beside the payload, which the
 * worker checks against the job's schema after taking this field off (workers/main.ts).
 */
export const JOB_TRACE_FIELD = '_traceparent'

function traced(data: object): object {
  const traceparent = currentTraceparent()
  return traceparent ? { ...data, [JOB_TRACE_FIELD]: traceparent } : data
}

/** The traceparent a job was queued with, if any (only a well-formed one). */
export function jobTraceparent(data: unknown): string | undefined {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[JOB_TRACE_FIELD] : undefined
  return typeof value === 'string' && /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(value) ? value : value === undefined ? undefined : ''
}

/** Queues a job; with a singleton key, a job already waiting for the same key absorbs this one. */
export async function enqueue<S extends z.ZodType>(contract: JobContract<S>, payload: z.input<S>, when: { startAfter?: Date } = {}): Promise<string | null> {
  const data = contract.schema.parse(payload) as object
  const boss = await getBoss()
  const id = await boss.send(contract.name, traced(data), {
    ...(contract.singletonKey ? { singletonKey: contract.singletonKey(data as z.output<S>) } : {}),
    ...(when.startAfter ? { startAfter: when.startAfter } : {}),
  })
  // Committed by now (send is its own statement): the workers fetch it at once rather than at their next poll.
  if (id && contract.announce)
    await boss
      .getDb()
      .executeSql('SELECT pg_notify($1, $2)', [JOB_ARRIVALS_CHANNEL, jobArrivalPayload({ queue: contract.name, startAfter: when.startAfter ?? null })])
      .catch((e: Error) => console.error(`[jobs] ${contract.name} ${id}: workers not told at once (they will find it at their next poll): ${e.message}`))
  return id
}

/** Queues many jobs of one kind in a single statement; those whose key is already waiting are skipped. */
export async function enqueueMany<S extends z.ZodType>(contract: JobContract<S>, payloads: z.input<S>[]): Promise<void> {
  if (payloads.length === 0) return
  const boss = await getBoss()
  await boss.insert(
    payloads.map((payload) => {
      const data = contract.schema.parse(payload) as object
      return { name: contract.name, data: traced(data), ...(contract.singletonKey ? { singletonKey: contract.singletonKey(data as z.output<S>) } : {}) }
    }),
  )
}
