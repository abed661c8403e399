// 7-day calls and failure rate per resolved tool (tool-stat-key.ts), for effective tool sets: held in memory per process and
// re-checked at most every TOOLROOM_STATS_CACHE_SECONDS (one-row version read; the map is reloaded
// only when the rollup changed the totals).
import 'server-only'
import { config } from '@/lib/config'
import { db } from '@/lib/sql'
import { failureRate } from './call-outcomes'

export interface ToolCallStats {
  totalCalls7d: number
  failureRate7d: number | null
  /** Calls Toolroom refused before the tool ran (counted in totalCalls7d, never as failures). */
  refusedCalls7d: number
}

export interface ToolStatsSnapshot {
  /** Changes whenever the numbers do: part of the cache key of answers that carry them. */
  version: string
  /** By tool stat key. */
  byTool: ReadonlyMap<string, ToolCallStats>
}

const ttlMs = () => config().TOOLROOM_STATS_CACHE_SECONDS * 1000
const EMPTY: ToolStatsSnapshot = { version: 'none', byTool: new Map() }

interface State {
  snapshot: ToolStatsSnapshot | null
  checkedAt: number
  refreshing: Promise<ToolStatsSnapshot> | null
}
const state: State = ((globalThis as { __toolroomToolStats?: State }).__toolroomToolStats ??= { snapshot: null, checkedAt: 0, refreshing: null })

async function refresh(): Promise<ToolStatsSnapshot> {
  const row = await db.selectFrom('CallStatState').select('version').where('id', '=', 1).executeTakeFirst()
  const version = String(row?.version ?? 'none')
  if (state.snapshot?.version !== version) {
    const stats = await db.selectFrom('CallStat7d').select(['key', 'calls', 'failures', 'refused']).where('dimension', '=', 'tool').execute()
    state.snapshot = {
      version,
      byTool: new Map(stats.map((s) => [s.key, { totalCalls7d: s.calls, failureRate7d: failureRate(s.calls, s.failures), refusedCalls7d: s.refused }])),
    }
  }
  state.checkedAt = Date.now()
  return state.snapshot!
}

export async function toolStatsSnapshot(): Promise<ToolStatsSnapshot> {
  if (state.snapshot && Date.now() - state.checkedAt < ttlMs()) return state.snapshot
  // One re-check per TTL, shared by every request that arrives meanwhile (a one-row read).
  state.refreshing ??= refresh().finally(() => {
    state.refreshing = null
  })
  return state.refreshing.catch((e) => {
    // Stats are a garnish on the effective set: without them the set is still served.
    console.error('[stats] loading tool stats failed:', e.message)
    return state.snapshot ?? EMPTY
  })
}

export const statsOfTool = (snapshot: ToolStatsSnapshot, key: string): ToolCallStats =>
  snapshot.byTool.get(key) ?? { totalCalls7d: 0, failureRate7d: null, refusedCalls7d: 0 }
