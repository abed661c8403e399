// What the queue and approval gauges report, read from the database when Prometheus scrapes a worker
// (at most every few seconds: lib/observability/metrics.ts caches it).
import 'server-only'
import { prisma } from '@/lib/db'
import { JOB_CONTRACTS } from '@/lib/jobs/job-contracts'
import type { DatabaseFigures } from './metrics'

export async function readQueueFigures(): Promise<DatabaseFigures> {
  const [approvals, queues] = await Promise.all([
    prisma.$queryRaw<Array<{ pending: bigint; oldest: Date | null }>>`
      SELECT count(*) AS pending, min("requestedAt") AS oldest FROM "ApprovalRequest" WHERE status = 'pending' AND "expiresAt" > now()`,
    // Waiting: created and not yet taken, or failed and waiting for its retry.
    prisma.$queryRaw<Array<{ name: string; depth: bigint }>>`
      SELECT name, count(*) AS depth FROM pgboss.job WHERE state IN ('created', 'retry') GROUP BY name`,
  ])
  const queueDepth: Record<string, number> = Object.fromEntries(JOB_CONTRACTS.map((c) => [c.name, 0]))
  for (const q of queues) if (q.name in queueDepth) queueDepth[q.name] = Number(q.depth)
  const oldest = approvals[0]?.oldest
  return {
    approvalsPending: Number(approvals[0]?.pending ?? 0),
    oldestPendingApprovalSeconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0,
    queueDepth,
  }
}
