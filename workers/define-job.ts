import type { z } from 'zod'
import type { JobContract } from '@/lib/jobs/job-contracts'

export interface JobContext {
  jobId: string
  /** 1 for the first try; higher after a retry or after the worker that had it died. */
  attempt: number
  /** No retry follows if this attempt fails. */
  lastAttempt: boolean
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  contract: JobContract<S>
  handle: (payload: z.output<S>, context: JobContext) => Promise<void>
}

/** A job's handler, attached to its contract (name, payload schema, queue policy) from lib/jobs. */
export function defineJob<S extends z.ZodType>(contract: JobContract<S>, handle: JobDefinition<S>['handle']): JobDefinition<S> {
  return { contract, handle }
}
