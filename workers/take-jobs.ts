// Takes the jobs of one queue, up to `concurrency` at a time. pg-boss's own work() loops fetch once
// per polling interval each (a loop whose job took 100 ms idles for the other 400 ms), which caps a
// worker at concurrency / interval jobs a second however short the jobs are. Here a free slot is
// filled as soon as it frees up, the free slots are filled with one query, and the polling interval
// only paces the fetches while the queue is empty. Queue semantics stay pg-boss's: a job is active
// while it runs, completed or failed (and so retried) after, and failed when it outlives its expiry.
import type PgBoss from 'pg-boss'

export interface QueueJob {
  id: string
  data: unknown
  retryCount?: number
  expireInSeconds?: number
}

export interface TakeJobsOptions {
  concurrency: number
  pollingIntervalMs: number
  onError?: (error: Error) => void
  /**
   * On stop, hand running jobs straight back to the queue instead of waiting for them: for jobs that
   * are safe to run again from the start (discovery, rollups), so a stop is not held up by a job
   * waiting on an unreachable host. Released jobs keep their retry count.
   */
  releaseOnStop?: boolean
}

export interface JobTaker {
  /**
   * A job was queued (lib/jobs/job-arrivals.ts): fetch now, or when it may start. Only a hint: the
   * polling interval still finds every job.
   */
  nudge(startAfter?: Date | null): void
  /**
   * Stops fetching; then releases the running jobs (`releaseOnStop`) or waits up to `timeoutMs` for
   * them, failing those still running.
   */
  stop(timeoutMs: number): Promise<void>
}

export function takeJobs(boss: PgBoss, queue: string, handle: (job: QueueJob) => Promise<void>, options: TakeJobsOptions): JobTaker {
  const onError = options.onError ?? ((e: Error) => console.error(`[worker] ${queue}: ${e.message}`))
  const running = new Map<string, Promise<void>>()
  // Jobs handed back on stop: whatever their handler does later is no longer theirs to report, since
  // another worker may hold the job by then.
  const released = new Set<string>()
  const settling = new Set<Promise<unknown>>()
  let stopping = false
  let wake: (() => void) | null = null
  // A nudge that came while the loop was fetching: the loop fetches again before it idles.
  let nudged = false
  let later: { at: number; timer: ReturnType<typeof setTimeout> } | null = null

  const settle = (p: Promise<unknown>) => {
    const tracked = p.catch((e: Error) => onError(e)).finally(() => settling.delete(tracked))
    settling.add(tracked)
  }

  // Completions are sent in batches: one statement for every job that finished meanwhile.
  let finished: string[] = []
  let flushing = false
  function complete(id: string) {
    finished.push(id)
    if (flushing) return
    flushing = true
    settle(
      (async () => {
        try {
          await new Promise((r) => setImmediate(r))
          while (finished.length) {
            const ids = finished
            finished = []
            await boss.complete(queue, ids).catch((e: Error) => onError(e))
          }
        } finally {
          flushing = false
        }
      })(),
    )
  }

  function start(job: QueueJob) {
    const expiry = (job.expireInSeconds ?? 0) * 1000
    let timer: ReturnType<typeof setTimeout> | undefined
    const bounded =
      expiry > 0
        ? Promise.race([
            handle(job),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`handler execution exceeded ${expiry}ms`)), expiry)
            }),
          ])
        : handle(job)
    const done = bounded
      .then(
        () => void (released.has(job.id) || complete(job.id)),
        (error: unknown) => void (released.has(job.id) || settle(boss.fail(queue, job.id, error as object))),
      )
      .finally(() => {
        clearTimeout(timer)
        running.delete(job.id)
        wake?.()
      })
    running.set(job.id, done)
  }

  async function loop() {
    while (!stopping) {
      const free = options.concurrency - running.size
      let fetched = 0
      if (free > 0) {
        try {
          const jobs = (await boss.fetch(queue, { batchSize: free, includeMetadata: true })) as QueueJob[]
          for (const job of jobs) start(job) // even when stopping meanwhile: they are ours now, as in work()
          fetched = jobs.length
        } catch (e) {
          onError(e as Error)
        }
      }
      // A full batch means more may be waiting: fetch again as soon as a slot is free.
      if (stopping || (free > 0 && fetched === free)) continue
      if (nudged) {
        nudged = false
        if (running.size < options.concurrency) continue
      }
      // The queue is empty (or every slot busy): wait for the polling interval or a finished job.
      await new Promise<void>((resolve) => {
        const idle = running.size < options.concurrency ? setTimeout(() => wake?.(), options.pollingIntervalMs) : undefined
        wake = () => {
          clearTimeout(idle)
          wake = null
          resolve()
        }
      })
    }
  }

  const looping = loop()
  return {
    nudge(startAfter) {
      if (stopping) return
      const delay = startAfter ? startAfter.getTime() - Date.now() : 0
      if (delay <= 0) {
        nudged = true
        wake?.()
        return
      }
      // One timer, for the earliest job announced to start later.
      if (later && later.at <= startAfter!.getTime()) return
      if (later) clearTimeout(later.timer)
      later = {
        at: startAfter!.getTime(),
        timer: setTimeout(() => {
          later = null
          if (stopping) return
          nudged = true
          wake?.()
        }, delay),
      }
    },
    async stop(timeoutMs) {
      stopping = true
      if (later) clearTimeout(later.timer)
      wake?.()
      await looping
      if (options.releaseOnStop && running.size > 0) {
        const ids = [...running.keys()]
        for (const id of ids) released.add(id)
        // pg-boss has no "give back": cancelled, then resumed, is active → created with nothing else changed.
        await boss.cancel(queue, ids)
        await boss.resume(queue, ids).catch((e: Error) => onError(new Error(`released jobs not requeued (${ids.join(', ')}): ${e.message}`)))
        await Promise.allSettled([...settling])
        return
      }
      let deadline: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.allSettled([...running.values()]),
        new Promise((r) => {
          deadline = setTimeout(r, timeoutMs)
        }),
      ])
      clearTimeout(deadline)
      for (const id of running.keys()) settle(boss.fail(queue, id, { message: 'worker shut down while active' }))
      await Promise.allSettled([...settling])
    },
  }
}
