// Rate limits, counted in fixed windows in PostgreSQL so they hold across any number of gateway
// processes: per tool (its `safety.rateLimit`, else its level's SideEffectPolicy default; a cap on the
// tool across all agents) and per agent (`spec.rateLimit` on the Agent, else
// TOOLROOM_AGENT_CALLS_PER_MINUTE/_PER_DAY).
// The calls a process counts at about the same time share one statement and one commit
// (toolroom_take_rates, migration 20261129050000_rate_batches), each counted as if alone, in the
// order they came; a refused call is counted nowhere.
import 'server-only'
import { config } from '@/lib/config'
import type { RateLimit } from '@/lib/effective-tools/types'
import { db, sql } from '@/lib/sql'
import { callPool } from './call-pool'
import { oneBatchAtATime } from './one-batch-at-a-time'

export interface RateWindow {
  scope: string
  start: Date
  expires: Date
  limit: number
  /** Whose calls the window counts: the tool's, the agent's, or those a Policy's limit rule matched. */
  applies: 'tool' | 'agent' | 'policy'
  length: 'minute' | 'day'
  retryAfterSeconds: number
}

export interface RateRefusal {
  limit: number
  window: 'minute' | 'day'
  applies: 'tool' | 'agent' | 'policy'
  message: string
  retryAfterSeconds: number
}

const MINUTE = 60_000
const DAY = 86_400_000

export function agentRateLimit(spec: Record<string, unknown>): RateLimit {
  const own = (spec.rateLimit ?? {}) as { callsPerMinute?: number; callsPerDay?: number }
  return {
    callsPerMinute: own.callsPerMinute ?? config().TOOLROOM_AGENT_CALLS_PER_MINUTE ?? null,
    callsPerDay: own.callsPerDay ?? config().TOOLROOM_AGENT_CALLS_PER_DAY ?? null,
  }
}

/** The windows a call counts against, in a fixed order (so concurrent calls lock rows in the same order). Pure. */
export function rateWindows(toolId: string, toolLimit: RateLimit, agentId: string, agentLimit: RateLimit, now: number): RateWindow[] {
  const out: RateWindow[] = []
  const add = (scope: string, limit: number | null, applies: RateWindow['applies'], length: RateWindow['length']) => {
    if (limit === null) return
    const ms = length === 'day' ? DAY : MINUTE
    const start = Math.floor(now / ms) * ms
    out.push({
      scope,
      start: new Date(start),
      expires: new Date(start + ms + MINUTE),
      limit,
      applies,
      length,
      retryAfterSeconds: Math.max(1, Math.ceil((start + ms - now) / 1000)),
    })
  }
  add(`a:${agentId}:d`, agentLimit.callsPerDay, 'agent', 'day')
  add(`a:${agentId}:m`, agentLimit.callsPerMinute, 'agent', 'minute')
  add(`t:${toolId}:d`, toolLimit.callsPerDay, 'tool', 'day')
  add(`t:${toolId}:m`, toolLimit.callsPerMinute, 'tool', 'minute')
  return out
}

function windowOf(scope: string, limit: number, applies: RateWindow['applies'], length: RateWindow['length'], now: number): RateWindow {
  const ms = length === 'day' ? DAY : MINUTE
  const start = Math.floor(now / ms) * ms
  return {
    scope,
    start: new Date(start),
    expires: new Date(start + ms + MINUTE),
    limit,
    applies,
    length,
    retryAfterSeconds: Math.max(1, Math.ceil((start + ms - now) / 1000)),
  }
}

/**
 * The windows of the Policy `limit` rules a call matched, each counting that agent's calls the rule
 * matched, added to the call's other windows. Sorted by scope, as the others already are, so
 * concurrent calls lock shared rows in the same order. Pure.
 */
export function withPolicyWindows(
  windows: RateWindow[],
  limits: ReadonlyArray<{ policy: string; rule: number; perMinute?: number; perDay?: number }>,
  agentId: string,
  now: number,
): RateWindow[] {
  if (limits.length === 0) return windows
  const extra = limits.flatMap((l) => [
    ...(l.perDay !== undefined ? [windowOf(`p:${l.policy}:${l.rule}:${agentId}:d`, l.perDay, 'policy', 'day', now)] : []),
    ...(l.perMinute !== undefined ? [windowOf(`p:${l.policy}:${l.rule}:${agentId}:m`, l.perMinute, 'policy', 'minute', now)] : []),
  ])
  return [...windows, ...extra].sort((a, b) => (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0))
}

// Its text never changes (the calls are its one parameter): compiled once, and named, so each
// connection of the pool parses and plans it once.
const takeRates = sql<{ hits: number[] }>`SELECT toolroom_take_rates(${'[]'}::jsonb) AS hits`.compile(db)

/** Calls counted together, at most this many a statement, so that one batch holds its windows' rows only briefly. */
const MAX_CALLS_A_BATCH = 100

const countCalls = oneBatchAtATime(async (calls: RateWindow[][]) => {
  const asked = calls.map((windows) => windows.map((w) => ({ scope: w.scope, start: w.start, expires: w.expires, limit: w.limit })))
  const { rows } = await callPool().query<{ hits: number[] }>({ name: 'toolroom_take_rates', text: takeRates.sql, values: [JSON.stringify(asked)] })
  return rows[0].hits
}, MAX_CALLS_A_BATCH)

/** Counts the call in every window, or returns which limit it would break. */
export async function takeRate(windows: RateWindow[]): Promise<RateRefusal | null> {
  if (windows.length === 0) return null
  const hit = await countCalls(windows)
  return hit === 0 ? null : refusalOf(windows[hit - 1])
}

export interface WindowUsage {
  window: RateWindow
  applies: RateWindow['applies']
  length: 'minute' | 'day'
  /** Calls counted in the window so far. */
  used: number
  full: boolean
}

/**
 * What takeRate would answer now, without counting anything: each window's use so far, and the
 * refusal of the first full one (the one takeRate stops at). The comparison is the database's own
 * (toolroom_rate_full), the same takeRate's function makes.
 */
export async function peekRate(windows: RateWindow[]): Promise<{ usage: WindowUsage[]; refusal: RateRefusal | null }> {
  if (windows.length === 0) return { usage: [], refusal: null }
  const windowsAsked = sql<{ scope: string; window_start: Date; max_calls: number; i: number }>`unnest(${windows.map((w) => w.scope)}::text[],
    ${windows.map((w) => w.start)}::timestamptz[], ${windows.map((w) => w.limit)}::int[]) WITH ORDINALITY`.as<'u'>(sql`u(scope, window_start, max_calls, i)`)
  const rows = await db
    .selectFrom(windowsAsked)
    .leftJoin('GatewayRateCounter as g', (join) => join.onRef('g.scope', '=', 'u.scope').onRef('g.windowStart', '=', 'u.window_start'))
    .select((eb) => {
      const used = eb.fn.coalesce('g.count', sql.lit(0))
      return [
        sql<number>`${eb.ref('u.i')}::int`.as('i'),
        sql<number>`${used}::int`.as('used'),
        sql<boolean>`toolroom_rate_full(${used}, ${eb.ref('u.max_calls')})`.as('full'),
      ]
    })
    .orderBy('u.i')
    .execute()
  const usage = rows.map((r) => {
    const window = windows[r.i - 1]
    return { window, applies: window.applies, length: window.length, used: r.used, full: r.full }
  })
  const first = usage.find((u) => u.full)
  return { usage, refusal: first ? refusalOf(first.window) : null }
}

function refusalOf(w: RateWindow): RateRefusal {
  return {
    limit: w.limit,
    window: w.length,
    applies: w.applies,
    retryAfterSeconds: w.retryAfterSeconds,
    message:
      w.applies === 'policy'
        ? `rate limit reached: ${w.limit} calls per ${w.length} by policy ${w.scope.split(':')[1]} for this agent; retry in ${w.retryAfterSeconds} s`
        : `rate limit reached: ${w.limit} calls per ${w.length} for this ${w.applies}; retry in ${w.retryAfterSeconds} s`,
  }
}

let lastSweep = 0
/** Drops windows that ended, at most once a minute per process. */
export function sweepExpiredWindows(now = Date.now()): void {
  if (now - lastSweep < MINUTE) return
  lastSweep = now
  db.deleteFrom('GatewayRateCounter')
    .where('expiresAt', '<', sql<Date>`now()`)
    .execute()
    .catch(() => {})
  db.deleteFrom('GatewayIdempotency')
    .where('expiresAt', '<', sql<Date>`now() - interval '1 minute'`)
    .execute()
    .catch(() => {})
}
