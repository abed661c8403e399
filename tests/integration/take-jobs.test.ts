// The worker's job taker on a real pg-boss queue: bounded concurrency, every job once, failures
// handed back to pg-boss (and so retried or failed by its policy), shutdown waits for running jobs
// or, for jobs safe to run again, hands them back to the queue at once.
import { randomUUID } from 'node:crypto'
import PgBoss from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueue } from '@/lib/jobs/enqueue'
import { type JobArrival, listenForJobArrivals } from '@/lib/jobs/job-arrivals'
import { executeApprovedCallJob, discoverySweepJob } from '@/lib/jobs/job-contracts'
import { stopBoss } from '@/lib/jobs/boss'
import { takeJobs } from '@/workers/take-jobs'
import { until } from '../support/until'

let boss: PgBoss

beforeAll(async () => {
  boss = new PgBoss({ connectionString: process.env.DATABASE_URL, schema: 'pgboss', max: 4, supervise: false, schedule: false })
  await boss.start()
})

afterAll(async () => {
  await boss.stop({ graceful: false, wait: true })
  await stopBoss()
})

async function queue(retryLimit = 0) {
  const name = `test.take-jobs.${randomUUID()}`
  await boss.createQueue(name, { name, policy: 'standard', retryLimit, retryDelay: 0, expireInSeconds: 60 })
  return name
}

describe('takeJobs', () => {
  it('runs every job once, never more than `concurrency` at a time, and completes them', async () => {
    const name = await queue()
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => boss.send(name, { i })))
    const seen: number[] = []
    let running = 0
    let most = 0
    const taker = takeJobs(
      boss,
      name,
      async (job) => {
        running++
        most = Math.max(most, running)
        await new Promise((r) => setTimeout(r, 30))
        seen.push((job.data as { i: number }).i)
        running--
      },
      { concurrency: 3, pollingIntervalMs: 500 },
    )
    await until('all twenty', () => seen.length === 20)
    await taker.stop(1_000)
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(most).toBe(3)
    for (const id of ids) expect((await boss.getJobById(name, id!))?.state).toBe('completed')
  })

  it('hands a failing job back to pg-boss: retried while it has retries, failed after', async () => {
    const name = await queue(1)
    const id = await boss.send(name, {})
    const attempts: number[] = []
    const taker = takeJobs(
      boss,
      name,
      async (job) => {
        attempts.push(job.retryCount ?? 0)
        throw new Error('upstream said no')
      },
      { concurrency: 2, pollingIntervalMs: 500 },
    )
    await until('the job to fail for good', async () => (await boss.getJobById(name, id!))?.state === 'failed')
    await taker.stop(1_000)
    expect(attempts).toEqual([0, 1])
    expect((await boss.getJobById(name, id!))?.output).toMatchObject({ message: 'upstream said no' })
  })

  it('on stop, waits for a running job to finish and completes it', async () => {
    const name = await queue()
    const id = await boss.send(name, {})
    let started = false
    let finished = false
    const taker = takeJobs(
      boss,
      name,
      async () => {
        started = true
        await new Promise((r) => setTimeout(r, 300))
        finished = true
      },
      { concurrency: 1, pollingIntervalMs: 500 },
    )
    await until('the job to start', () => started)
    await taker.stop(5_000)
    expect(finished).toBe(true)
    expect((await boss.getJobById(name, id!))?.state).toBe('completed')
  })

  it('with releaseOnStop, hands a running job straight back to the queue without waiting for it, its retries untouched, for another worker to run', async () => {
    const name = await queue(2)
    const id = await boss.send(name, { subject: 'unreachable.example' })
    let started = false
    let finishHandler: () => void = () => {}
    const taker = takeJobs(
      boss,
      name,
      () =>
        new Promise<void>((resolve) => {
          started = true
          finishHandler = resolve
        }),
      { concurrency: 1, pollingIntervalMs: 500, releaseOnStop: true },
    )
    await until('the job to start', () => started)
    // The handler only ends when told: a stop that waited for it would never return.
    await taker.stop(600_000)
    const released = await boss.getJobById(name, id!)
    expect({ state: released?.state, retryCount: released?.retryCount }).toEqual({ state: 'created', retryCount: 0 })
    // Its old handler ending later reports nothing: the job is no longer this worker's.
    finishHandler()
    const ran: unknown[] = []
    const next = takeJobs(boss, name, async (job) => void ran.push(job.data), { concurrency: 1, pollingIntervalMs: 100 })
    await until('another worker to run it', async () => (await boss.getJobById(name, id!))?.state === 'completed')
    await next.stop(1_000)
    expect(ran).toEqual([{ subject: 'unreachable.example' }])
  })

  describe('told of a job (lib/jobs/job-arrivals.ts)', () => {
    // The polling interval is ten minutes: a job that runs within the test was fetched because of the nudge.
    const NEVER = 600_000

    /** A taker on `name` whose fetches are counted (the real pg-boss underneath), once it has found the queue empty. */
    async function idleTaker(name: string, ran: unknown[]) {
      let fetches = 0
      const counted = Object.create(boss) as PgBoss
      counted.fetch = (async (...args: Parameters<PgBoss['fetch']>) => {
        const jobs = await boss.fetch(...args)
        fetches++
        return jobs
      }) as PgBoss['fetch']
      const taker = takeJobs(counted, name, async (job) => void ran.push(job.data), { concurrency: 2, pollingIntervalMs: NEVER })
      await until('the first (empty) fetch', () => fetches >= 1)
      return taker
    }

    it('a nudge fetches at once, not at the next poll', async () => {
      const name = await queue()
      const ran: unknown[] = []
      const taker = await idleTaker(name, ran)
      await boss.send(name, { n: 1 })
      taker.nudge()
      await until('the nudged job to run', () => ran.length === 1)
      await taker.stop(1_000)
      expect(ran).toEqual([{ n: 1 }])
    })

    it('a job that may start later is fetched when it may, with no poll in between', async () => {
      const name = await queue()
      const ran: unknown[] = []
      const taker = await idleTaker(name, ran)
      const startAfter = new Date(Date.now() + 1_500)
      await boss.send(name, { n: 2 }, { startAfter })
      taker.nudge(startAfter)
      await until('the job to run once it may', () => ran.length === 1)
      await taker.stop(1_000)
      expect(ran).toEqual([{ n: 2 }])
    })

    it('an announced queue NOTIFYs every listening worker as its job is queued; others do not', async () => {
      const heard: JobArrival[] = []
      const listener = listenForJobArrivals(process.env.DATABASE_URL, (arrival) => heard.push(arrival))
      try {
        // The listener is connected once it hears anything: announce until it does.
        await until('the listener to be connected', async () => {
          await enqueue(executeApprovedCallJob, { approvalId: randomUUID() })
          return heard.length > 0
        })
        const startAfter = new Date(Date.now() + 60_000)
        await enqueue(executeApprovedCallJob, { approvalId: randomUUID() }, { startAfter })
        await until('the announcement with its start', () => heard.some((a) => a.startAfter?.getTime() === startAfter.getTime()))
        expect(heard.every((a) => a.queue === executeApprovedCallJob.name)).toBe(true)
        const before = heard.length
        await enqueue(discoverySweepJob, {})
        await enqueue(executeApprovedCallJob, { approvalId: randomUUID() })
        await until('the next announcement', () => heard.length > before)
        expect(heard.slice(before).map((a) => a.queue)).toEqual([executeApprovedCallJob.name])
      } finally {
        await listener.close()
      }
    })
  })
})
