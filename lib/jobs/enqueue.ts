import type { z } from 'zod'
import { getBoss } from './boss'
import type { JobContract } from './job-contracts'

/** Queues a job; with a singleton key, a job already waiting for the same key absorbs this one. */
export async function enqueue<S extends z.ZodType>(contract: JobContract<S>, payload: z.input<S>): Promise<string | null> {
  const data = contract.schema.parse(payload) as object
  const boss = await getBoss()
  return boss.send(contract.name, data, contract.singletonKey ? { singletonKey: contract.singletonKey(data as z.output<S>) } : {})
}
