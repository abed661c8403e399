// The queue as approvers read it: pending requests oldest first (decided ones newest first), with
// filters, keyset pages and the total, plus the queue's figures for the dashboard.
import 'server-only'
import { prisma } from '@/lib/db'
import { db, sql } from '@/lib/sql'
import { notFound } from '@/lib/errors/app-error'
import type { Prisma } from '@/lib/generated/prisma/client'
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'
import { parseAgentRef } from '@/lib/resources/parse-agent-ref'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { type ApprovalStatus, toApprovalView } from './approval-view'

export interface ApprovalFilters {
  status?: ApprovalStatus
  level?: SideEffectLevel
  agent?: string
  tool?: string
  namespace?: string
  limit: number
  cursor?: string
}

export async function listApprovals(f: ApprovalFilters) {
  const status = f.status ?? 'pending'
  const oldestFirst = status === 'pending'
  const timeField = oldestFirst ? 'requestedAt' : 'decidedAt'
  const where: Prisma.ApprovalRequestWhereInput = {
    status,
    ...(f.level ? { level: f.level } : {}),
    ...(f.agent ? agentWhere(f.agent) : {}),
    ...(f.tool ? { toolId: f.tool } : {}),
    ...(f.namespace ? { toolNamespace: f.namespace } : {}),
  }
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  const dir = oldestFirst ? 'asc' : 'desc'
  const page: Prisma.ApprovalRequestWhereInput = after ? afterTimeCursor(timeField, after, dir) : {}
  const [rows, total] = await Promise.all([
    prisma.approvalRequest.findMany({
      where: { AND: [where, page] },
      orderBy: [{ [timeField]: dir }, { id: dir }],
      take: f.limit + 1,
      omit: { argsSealed: true, resultSealed: true, subjectSealed: true },
    }),
    prisma.approvalRequest.count({ where }),
  ])
  // Decided requests have a decidedAt, pending ones a requestedAt: the page's time is never null.
  const { items, nextCursor } = keysetPage(rows, f.limit, (last) => encodeTimeCursor(last[timeField]!, last.id))
  const now = Date.now()
  return { items: items.map((r) => toApprovalView({ ...r, argsSealed: null, resultSealed: null, subjectSealed: null }, now)), total, nextCursor }
}

/** The agent filter as everywhere: `namespace/name`, a name in any namespace, or an id. */
function agentWhere(agent: string): Prisma.ApprovalRequestWhereInput {
  const ref = parseAgentRef(agent)
  if ('id' in ref) return { agentId: ref.id }
  return 'namespace' in ref ? { agentNamespace: ref.namespace, agentName: ref.name } : { agentName: ref.name }
}

export async function getApproval(id: string) {
  const row = await prisma.approvalRequest.findUnique({ where: { id }, omit: { argsSealed: true, resultSealed: true, subjectSealed: true } })
  if (!row) throw notFound(`approval "${id}"`)
  return toApprovalView({ ...row, argsSealed: null, resultSealed: null, subjectSealed: null })
}

export interface ApprovalQueueStats {
  pending: number
  oldestPendingAt: string | null
  /** Over requests decided in the last 7 days (expired ones excluded: nobody decided them). */
  timeToDecisionSeconds: { p50: number | null; p95: number | null; decided: number }
  decided7d: { approved: number; denied: number; expired: number }
}

export async function approvalQueueStats(): Promise<ApprovalQueueStats> {
  const lastWeek = sql<Date>`now() - interval '7 days'`
  const [pending, timing, counts] = await Promise.all([
    db
      .selectFrom('ApprovalRequest')
      .select((eb) => [eb.fn.countAll<bigint>().as('pending'), eb.fn.min<Date | null>('requestedAt').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('ApprovalRequest')
      .select((eb) => {
        const secondsToDecide = sql`extract(epoch FROM ${eb.ref('decidedAt')} - ${eb.ref('requestedAt')})`
        return [
          sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${secondsToDecide})`.as('p50'),
          sql<number | null>`percentile_cont(0.95) WITHIN GROUP (ORDER BY ${secondsToDecide})`.as('p95'),
          eb.fn.countAll<bigint>().as('decided'),
        ]
      })
      .where('status', 'in', ['approved', 'denied'])
      .where('decidedAt', '>', lastWeek)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('ApprovalRequest')
      .select((eb) => ['status', eb.fn.countAll<bigint>().as('n')])
      .where('status', '<>', 'pending')
      .where('decidedAt', '>', lastWeek)
      .groupBy('status')
      .execute(),
  ])
  const by = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]))
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 10) / 10)
  return {
    pending: Number(pending.pending),
    oldestPendingAt: pending.oldest?.toISOString() ?? null,
    timeToDecisionSeconds: { p50: round(timing.p50), p95: round(timing.p95), decided: Number(timing.decided) },
    decided7d: { approved: by.approved ?? 0, denied: by.denied ?? 0, expired: by.expired ?? 0 },
  }
}
