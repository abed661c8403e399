// A worker process: takes jobs from the queue until told to stop. Run several against one database
// (npm run workers); pg-boss hands each job to one of them, and a job whose worker died is retried.
import { prisma } from '@/lib/db'
import { installLogMasking } from '@/lib/secrets/mask-secret-values'
import { getBoss, stopBoss } from '@/lib/jobs/boss'
import { JOBS } from './registry'

installLogMasking()

const CONCURRENCY = Number(process.env.TOOLROOM_WORKER_CONCURRENCY ?? 8)
const log = (...args: unknown[]) => console.log('[worker]', ...args)

async function main() {
  const boss = await getBoss('worker')
  for (const job of JOBS) {
    const { contract } = job
    const work = async ([raw]: Array<{ id: string; data: unknown; retryCount?: number }>) => {
      const payload = contract.schema.safeParse(raw.data)
      if (!payload.success) {
        // A malformed payload will never succeed: fail it without retries worth of noise.
        console.error(`[worker] ${contract.name} ${raw.id}: invalid payload: ${payload.error.message}`)
        return
      }
      const attempt = (raw.retryCount ?? 0) + 1
      await job.handle(payload.data, { jobId: raw.id, attempt, lastAttempt: attempt > contract.retryLimit })
    }
    // Several fetch loops per queue give bounded concurrency; each takes one job at a time.
    const loops = contract.cron ? 1 : CONCURRENCY
    for (let i = 0; i < loops; i++)
      await boss.work(contract.name, { batchSize: 1, pollingIntervalSeconds: contract.pollSeconds ?? Number(process.env.TOOLROOM_WORKER_POLL_SECONDS ?? 1), includeMetadata: true }, work as never)
    if (contract.cron) await boss.schedule(contract.name, contract.cron, {})
  }
  log(`ready: ${JOBS.map((j) => j.contract.name).join(', ')} (concurrency ${CONCURRENCY})`)
}

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await stopBoss().catch((e) => console.error('[worker] stop:', e.message))
  await prisma.$disconnect()
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop())

main().catch((e) => {
  console.error('[worker] failed to start:', e)
  process.exit(1)
})
