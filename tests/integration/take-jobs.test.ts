// The worker's job taker on a real pg-boss queue: bounded concurrency, every job once, failures
// handed back to pg-boss (and so retried or failed by its policy), shutdown waits for running jobs
// or, for jobs safe to run again, hands them back to the queue at once.
import { randomUUID } from 'node:crypto'
import PgBoss from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takeJobs } from '@/workers/take-jobs'
import { until } from '../support/until'

let boss: PgBoss

beforeAll(async () => {
  boss = new PgBoss({ connectionString: process.env.DATABASE_URL, schema: 'pgboss', max: 4, supervise: false, schedule: false })
  await boss.start()
})

afterAll(async () => {
  await boss.stop({ graceful: false, wait: true })
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
})
