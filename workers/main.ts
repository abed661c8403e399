// A worker process: takes jobs from the queue until told to stop. Run several against one database
// (`node dist/worker.cjs`, or npm run workers); pg-boss hands each job to one of them, and a job whose
// worker died is retried. With TOOLROOM_METRICS_PORT set it serves /metrics, /livez and /readyz there
// (lib/observability/metrics-server.ts): ready while the database answers and the queue is started.
import '@/lib/check-config'
import { flushCallLogs, nameCallLogProcess } from '@/lib/call-log/send-call-logs'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { checkHealth } from '@/lib/health/check-health'
import { refreshToolStatus } from '@/lib/tools/refresh-tool-status'
import { getBoss, stopBoss } from '@/lib/jobs/boss'
import { JOB_TRACE_FIELD, jobTraceparent } from '@/lib/jobs/enqueue'
import { type JobArrivalListener, listenForJobArrivals } from '@/lib/jobs/job-arrivals'
import { bridgeConsoleToLogger, logger, setLogRole, withLogContext } from '@/lib/observability/logger'
import { observeJob, readDatabaseFiguresWith } from '@/lib/observability/metrics'
import { startMetricsServer } from '@/lib/observability/metrics-server'
import { startTracing, stopTracing, withSpan } from '@/lib/observability/tracing'
import { readQueueFigures } from '@/lib/jobs/queue-figures'
import { installLogMasking } from '@/lib/secrets/mask-secret-values'
import { db, sql } from '@/lib/sql'
import { JOBS } from './registry'
import { selectJobs } from './select-jobs'
import { type JobTaker, type QueueJob, takeJobs } from './take-jobs'

installLogMasking()
setLogRole('worker')
bridgeConsoleToLogger()

const CONCURRENCY = config().TOOLROOM_WORKER_CONCURRENCY
const log = logger()

const takers: JobTaker[] = []
let queueStarted = false
let arrivals: JobArrivalListener | null = null

async function main() {
  await startTracing('worker')
  nameCallLogProcess('worker')
  const jobs = selectJobs(JOBS, config().TOOLROOM_WORKER_JOBS)
  readDatabaseFiguresWith(readQueueFigures)
  const metricsPort = await startMetricsServer('worker', async () => {
    if (!queueStarted) return 'the job queue is not started yet'
    const health = await checkHealth()
    return health.status === 'ok' ? null : `database: ${health.database}`
  })
  // The first Prisma query of a process loads the query compiler and opens the pool (~250 ms of CPU,
  // measured): pay it before taking jobs, not inside the first ones (and fail here if the database is
  // unreachable, rather than in a job).
  await sql`SELECT 1`.execute(db)
  // Tool status depends on this process's settings too (the outbound policy, os tools): observe
  // every tool once, so nothing waits for the next sweep after a deploy or an upgrade.
  const status = await refreshToolStatus({ all: true })
  log.info(`tool status: ${status.changed} of ${status.checked} tools changed`)
  const boss = await getBoss('worker')
  const takersByQueue = new Map<string, JobTaker>()
  if (jobs.some((job) => job.contract.announce))
    arrivals = listenForJobArrivals(config().DATABASE_URL, ({ queue, startAfter }) => takersByQueue.get(queue)?.nudge(startAfter), {
      onError: (e) => log.warn(`job arrivals: ${e.message} (reconnecting; jobs are still found by polling)`),
    })
  for (const job of jobs) {
    const { contract } = job
    const work = async (raw: QueueJob) => {
      // The enqueuer's trace context travels beside the payload (lib/jobs/enqueue.ts), not in it.
      const traceparent = jobTraceparent(raw.data)
      const data = traceparent === undefined ? raw.data : withoutTraceField(raw.data)
      const payload = contract.schema.safeParse(data)
      if (!payload.success) {
        // A malformed payload will never succeed: fail it without retries worth of noise.
        log.error({ job: contract.name, jobId: raw.id }, `${contract.name} ${raw.id}: invalid payload: ${payload.error.message}`)
        return
      }
      const attempt = (raw.retryCount ?? 0) + 1
      const t0 = performance.now()
      let result: 'completed' | 'failed' = 'failed'
      try {
        await withLogContext({ job: contract.name, jobId: raw.id }, () =>
          withSpan(
            `job ${contract.name}`,
            {
              kind: 'consumer',
              parent: { traceparent },
              attributes: { 'toolroom.job': contract.name, 'toolroom.job_id': raw.id, 'toolroom.attempt': attempt },
            },
            () => job.handle(payload.data, { jobId: raw.id, attempt, lastAttempt: attempt > contract.retryLimit }),
          ),
        )
        result = 'completed'
      } finally {
        observeJob(contract.name, result, (performance.now() - t0) / 1000, attempt)
      }
    }
    const concurrency = contract.cron ? 1 : CONCURRENCY
    const taker = takeJobs(boss, contract.name, work, {
      concurrency,
      pollingIntervalMs: (contract.pollSeconds ?? config().TOOLROOM_WORKER_POLL_SECONDS) * 1000,
      releaseOnStop: contract.releaseOnStop === true,
    })
    takers.push(taker)
    if (contract.announce) takersByQueue.set(contract.name, taker)
    if (contract.cron) await boss.schedule(contract.name, contract.cron, {})
  }
  queueStarted = true
  log.info({ metricsPort }, `ready: ${jobs.map((j) => j.contract.name).join(', ')} (concurrency ${CONCURRENCY})`)
}

function withoutTraceField(data: unknown): unknown {
  const { [JOB_TRACE_FIELD]: _trace, ...rest } = data as Record<string, unknown>
  return rest
}

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await arrivals?.close()
  await Promise.all(takers.map((t) => t.stop(10_000))).catch((e) => log.error(`stop: ${e.message}`))
  await stopBoss().catch((e) => log.error(`stop: ${e.message}`))
  await prisma.$disconnect()
  await Promise.all([stopTracing(), flushCallLogs()])
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop())

main().catch((e) => {
  log.error({ err: e }, `failed to start: ${(e as Error).message}`)
  process.exit(1)
})
