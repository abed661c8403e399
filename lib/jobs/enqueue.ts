import type { z } from 'zod'
import { getBoss } from './boss'
import type { JobContract } from './job-contracts'

/** Queues a job; with a singleton key, a job already waiting for the same key absorbs this one. */
export async function enqueue<S extends z.ZodType>(contract: JobContract<S>, payload: z.input<S>): Promise<string | null> {
  const data = contract.schema.parse(payload) as object
  const boss = await getBoss()
  return boss.send(contract.name, data, contract.singletonKey ? { singletonKey: contract.singletonKey(data as z.output<S>) } : {})
}

/** Queues many jobs of one kind in a single statement; those whose key is already waiting are skipped. */
export async function enqueueMany<S extends z.ZodType>(contract: JobContract<S>, payloads: z.input<S>[]): Promise<void> {
  if (payloads.length === 0) return
  const boss = await getBoss()
  await boss.insert(
    payloads.map((payload) => {
      const data = contract.schema.parse(payload) as object
      return { name: contract.name, data, ...(contract.singletonKey ? { singletonKey: contract.singletonKey(data as z.output<S>) } : {}) }
    }),
  )
}
