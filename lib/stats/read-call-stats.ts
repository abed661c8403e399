// 7-day statistics of one dimension value, by day and by hour, merged from the hourly rollups:
// counts add up, percentiles come from the summed latency histograms.
import 'server-only'
import type { SourceRef } from '@/lib/effective-tools/types'
import { db, sql } from '@/lib/sql'
import { failureRate } from './call-outcomes'
import { addHistogram, emptyHistogram, percentileOf } from './latency-buckets'
import { windowDays, windowHours, windowStart } from './stats-window'
import { parseToolStatKey } from './tool-stat-key'

export const STAT_DIMENSIONS = ['tool', 'agent', 'unit', 'namespace', 'all'] as const
export type StatDimension = (typeof STAT_DIMENSIONS)[number]

export interface StatPoint {
  calls: number
  failures: number
  refused: number
  failureRate: number | null
  p50Ms: number | null
  p95Ms: number | null
  avgMs: number | null
}

export interface CallStats {
  dimension: StatDimension
  key: string
  window: { from: string; to: string }
  totals: StatPoint
  byDay: Array<StatPoint & { day: string }>
  byHour: Array<StatPoint & { hour: string }>
}

interface Acc {
  calls: number
  failures: number
  refused: number
  latencyCount: number
  latencySumMs: number
  histogram: number[]
}

const emptyAcc = (): Acc => ({ calls: 0, failures: 0, refused: 0, latencyCount: 0, latencySumMs: 0, histogram: emptyHistogram() })

function add(into: Acc, row: Acc) {
  into.calls += row.calls
  into.failures += row.failures
  into.refused += row.refused
  into.latencyCount += row.latencyCount
  into.latencySumMs += row.latencySumMs
  addHistogram(into.histogram, row.histogram)
}

function point(a: Acc): StatPoint {
  return {
    calls: a.calls,
    failures: a.failures,
    refused: a.refused,
    failureRate: failureRate(a.calls, a.failures),
    p50Ms: percentileOf(a.histogram, 0.5),
    p95Ms: percentileOf(a.histogram, 0.95),
    avgMs: a.latencyCount > 0 ? Math.round((a.latencySumMs / a.latencyCount) * 10) / 10 : null,
  }
}

/** `keys`: the rollup keys to merge under `key` (a unit and its sub-units); by default `key` alone. */
export async function readCallStats(dimension: StatDimension, key: string, now = new Date(), keys: string[] = [key]): Promise<CallStats> {
  const rows = await db
    .selectFrom('CallStatHourly')
    .select(['hour', 'calls', 'failures', 'refused', 'latencyCount', 'latencySumMs', 'latencyHistogram'])
    .where('dimension', '=', dimension)
    .where((eb) => eb('key', '=', eb.fn.any(eb.val(keys))))
    .where('hour', '>=', windowStart(now))
    .where('hour', '<=', now)
    .execute()
  const byHour = new Map<number, Acc>()
  for (const r of rows) {
    const at = r.hour.getTime()
    const acc = byHour.get(at) ?? emptyAcc()
    add(acc, { ...r, latencySumMs: Number(r.latencySumMs), histogram: r.latencyHistogram })
    byHour.set(at, acc)
  }

  const totals = emptyAcc()
  const days = new Map(windowDays(now).map((d) => [d, emptyAcc()]))
  const hours = windowHours(now).map((hour) => {
    const acc = byHour.get(hour.getTime()) ?? emptyAcc()
    add(totals, acc)
    add(days.get(hour.toISOString().slice(0, 10))!, acc)
    return { hour: hour.toISOString(), ...point(acc) }
  })
  return {
    dimension,
    key,
    window: { from: windowStart(now).toISOString(), to: now.toISOString() },
    totals: point(totals),
    byDay: [...days].map(([day, acc]) => ({ day, ...point(acc) })),
    byHour: hours,
  }
}

export interface FailingTool {
  /** The resolved tool (tool-stat-key.ts), and what it names: the tool id and its source. */
  key: string
  toolId: string
  source: SourceRef | null
  calls: number
  failures: number
  refused: number
  failureRate: number
}

/** Tools with the most failures over the window (then the highest rate), from the 7-day totals. */
export async function topFailingTools(limit: number): Promise<FailingTool[]> {
  const rows = await db
    .selectFrom('CallStat7d')
    .select(['key', 'calls', 'failures', 'refused'])
    .where('dimension', '=', 'tool')
    .where('failures', '>', 0)
    .orderBy('failures', 'desc')
    .orderBy((eb) => sql`${eb.ref('failures')}::float8 / ${eb.ref('calls')}`, 'desc')
    .orderBy('key')
    .limit(limit)
    .execute()
  return rows.map((r) => {
    const parsed = parseToolStatKey(r.key)
    return {
      key: r.key,
      toolId: parsed?.toolId ?? r.key,
      source: parsed?.source ?? null,
      calls: r.calls,
      failures: r.failures,
      refused: r.refused,
      failureRate: r.failures / r.calls,
    }
  })
}
