// The failure view of one resolved tool over the 7-day window: its calls and failure rate by day and
// by hour, its failures by error code and message, its calls by agent (all from the hourly rollups),
// and its latest failed calls with what the upstream answered (from the call log, through the
// partial index of failed calls by tool).
import 'server-only'
import { prisma } from '@/lib/db'
import type { SourceRef } from '@/lib/effective-tools/types'
import { db } from '@/lib/sql'
import { failureRate } from './call-outcomes'
import { LIST_COLUMNS, toCallView } from './list-calls'
import { type CallStats, readCallStats } from './read-call-stats'
import { windowStart } from './stats-window'
import { parseToolStatKey } from './tool-stat-key'

/** What a CallStatToolHourly row breaks a tool's figures down by: the calling agent, or the error code. */
export const TOOL_FAILURE_PARTS = ['agent', 'error'] as const

export const TOP_ERRORS = 20
export const TOP_AGENTS = 20
export const RECENT_FAILURES = 10

export interface ToolErrorCount {
  /** The call's error code ('' when it recorded none). */
  code: string
  /** The message's first 200 characters; null for messages counted together (beyond the ones kept apart, or none). */
  message: string | null
  failures: number
  /** Share of the tool's failures in the window (0..1). */
  share: number
  /** The start of the hour of the first and of the last of these failures in the window (the rollups' grain). */
  firstSeen: string
  lastSeen: string
}

export interface ToolAgentCount {
  agentId: string
  /** The agent as it is registered now; null when it was deleted since. */
  namespace: string | null
  name: string | null
  calls: number
  failures: number
  refused: number
  failureRate: number | null
}

export async function readToolFailures(key: string, now = new Date()) {
  const parsed = parseToolStatKey(key)
  const from = windowStart(now)
  const [stats, errors, agents, recent] = await Promise.all([
    readCallStats('tool', key, now),
    db
      .selectFrom('CallStatToolHourly')
      .select((eb) => [
        'value as code',
        'detail as message',
        eb.cast<number>(eb.fn.sum('failures'), 'integer').as('failures'),
        eb.fn.min('hour').as('firstSeen'),
        eb.fn.max('hour').as('lastSeen'),
      ])
      .where('toolKey', '=', key)
      .where('part', '=', 'error')
      .where('hour', '>=', from)
      .where('hour', '<=', now)
      .groupBy(['value', 'detail'])
      .orderBy('failures', 'desc')
      .orderBy('value')
      .orderBy('detail')
      .limit(TOP_ERRORS)
      .execute(),
    db
      .selectFrom(
        db
          .selectFrom('CallStatToolHourly')
          .select((eb) => [
            'value',
            eb.cast<number>(eb.fn.sum('calls'), 'integer').as('calls'),
            eb.cast<number>(eb.fn.sum('failures'), 'integer').as('failures'),
            eb.cast<number>(eb.fn.sum('refused'), 'integer').as('refused'),
          ])
          .where('toolKey', '=', key)
          .where('part', '=', 'agent')
          .where('hour', '>=', from)
          .where('hour', '<=', now)
          .groupBy('value')
          .as('t'),
      )
      .leftJoin('Agent as a', (join) => join.on((eb) => eb(eb.cast<string>('a.id', 'text'), '=', eb.ref('t.value'))))
      .select((eb) => [
        't.value as agentId',
        'a.namespace',
        'a.name',
        't.calls',
        't.failures',
        't.refused',
        eb.cast<number>(eb.fn.countAll().over(), 'integer').as('total'),
      ])
      .orderBy('t.failures', 'desc')
      .orderBy('t.calls', 'desc')
      .orderBy('t.value')
      .limit(TOP_AGENTS)
      .execute(),
    // Calls of a tool the caller's set did not have are recorded without a key: found by their id.
    prisma.toolCall.findMany({
      where: { outcome: 'failed', ...(parsed && parsed.source === null ? { toolKey: null, toolId: parsed.toolId } : { toolKey: key }) },
      select: LIST_COLUMNS,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: RECENT_FAILURES,
    }),
  ])
  const failures = stats.totals.failures
  return {
    key,
    toolId: parsed?.toolId ?? key,
    source: (parsed?.source ?? null) as SourceRef | null,
    stats: stats as CallStats,
    errors: errors.map((e): ToolErrorCount => ({
      code: e.code,
      message: e.message === '' ? null : e.message,
      failures: e.failures,
      share: failures > 0 ? e.failures / failures : 0,
      firstSeen: e.firstSeen.toISOString(),
      lastSeen: e.lastSeen.toISOString(),
    })),
    agents: agents.map(({ total: _total, ...a }): ToolAgentCount => ({ ...a, failureRate: failureRate(a.calls, a.failures) })),
    agentsTotal: agents[0]?.total ?? 0,
    recent: recent.map(toCallView),
  }
}

export type ToolFailures = Awaited<ReturnType<typeof readToolFailures>>
