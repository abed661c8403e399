// What the queue and approval gauges report, read from the database when Prometheus scrapes a worker
// (at most every few seconds: lib/observability/metrics.ts caches it).
import 'server-only'
import { JOB_CONTRACTS } from '@/lib/jobs/job-contracts'
import { db, sql } from '@/lib/sql'
import type { DatabaseFigures } from '@/lib/observability/metrics'

export async function readQueueFigures(): Promise<DatabaseFigures> {
  const [approvals, queues] = await Promise.all([
    db
      .selectFrom('ApprovalRequest')
      .select((eb) => [eb.fn.countAll<bigint>().as('pending'), eb.fn.min<Date | null>('requestedAt').as('oldest')])
      .where('status', '=', 'pending')
      .where('expiresAt', '>', sql<Date>`now()`)
      .execute(),
    // Waiting: created and not yet taken, or failed and waiting for its retry.
    db
      .selectFrom('pgboss.job')
      .select((eb) => ['name', eb.fn.countAll<bigint>().as('depth')])
      .where('state', 'in', ['created', 'retry'])
      .groupBy('name')
      .execute(),
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
