// A worker process: takes jobs from the queue until told to stop. Run several against one database
// (npm run workers); pg-boss hands each job to one of them, and a job whose worker died is retried.
import { prisma } from '@/lib/db'
import { installLogMasking } from '@/lib/secrets/mask-secret-values'
import { refreshToolStatus } from '@/lib/tools/refresh-tool-status'
import { getBoss, stopBoss } from '@/lib/jobs/boss'
import { JOBS } from './registry'
import { selectJobs } from './select-jobs'
import { type JobTaker, type QueueJob, takeJobs } from './take-jobs'

installLogMasking()

const CONCURRENCY = Number(process.env.TOOLROOM_WORKER_CONCURRENCY ?? 8)
const log = (...args: unknown[]) => console.log('[worker]', ...args)

const takers: JobTaker[] = []

async function main() {
  const jobs = selectJobs(JOBS, process.env.TOOLROOM_WORKER_JOBS)
  // The first Prisma query of a process loads the query compiler and opens the pool (~250 ms of CPU,
  // measured): pay it before taking jobs, not inside the first ones (and fail here if the database is
  // unreachable, rather than in a job).
  await prisma.$queryRaw`SELECT 1`
  // Tool status depends on this process's settings too (the outbound policy, os tools): observe
  // every tool once, so nothing waits for the next sweep after a deploy or an upgrade.
  const status = await refreshToolStatus({ all: true })
  log(`tool status: ${status.changed} of ${status.checked} tools changed`)
  const boss = await getBoss('worker')
  for (const job of jobs) {
    const { contract } = job
    const work = async (raw: QueueJob) => {
      const payload = contract.schema.safeParse(raw.data)
      if (!payload.success) {
        // A malformed payload will never succeed: fail it without retries worth of noise.
        console.error(`[worker] ${contract.name} ${raw.id}: invalid payload: ${payload.error.message}`)
        return
      }
      const attempt = (raw.retryCount ?? 0) + 1
      await job.handle(payload.data, { jobId: raw.id, attempt, lastAttempt: attempt > contract.retryLimit })
    }
    const concurrency = contract.cron ? 1 : CONCURRENCY
    takers.push(takeJobs(boss, contract.name, work, { concurrency, pollingIntervalMs: (contract.pollSeconds ?? Number(process.env.TOOLROOM_WORKER_POLL_SECONDS ?? 1)) * 1000 }))
    if (contract.cron) await boss.schedule(contract.name, contract.cron, {})
  }
  log(`ready: ${jobs.map((j) => j.contract.name).join(', ')} (concurrency ${CONCURRENCY})`)
}

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await Promise.all(takers.map((t) => t.stop(10_000))).catch((e) => console.error('[worker] stop:', e.message))
  await stopBoss().catch((e) => console.error('[worker] stop:', e.message))
  await prisma.$disconnect()
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop())

main().catch((e) => {
  console.error('[worker] failed to start:', e)
  process.exit(1)
})
