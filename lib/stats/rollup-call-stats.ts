// The statistics rollup: turns ToolCall rows into hourly per-dimension rows (CallStatHourly), the
// 7-day totals (CallStat7d) and the Tool status fields. Which hours to redo comes from the dirty-hour
// log the ToolCall triggers write (see the call_stats migration), so late, changed and deleted calls
// are counted whatever their startedAt. Each step is a transaction under one advisory lock: any
// number of workers may run it, one does the work, and a re-run over the same calls writes the same rows.
import { prisma } from '@/lib/db'
import { FAILURE_OUTCOMES, REFUSED_OUTCOMES, TIMED_OUTCOMES, UNCOUNTED_OUTCOMES } from './call-outcomes'
import { LATENCY_BUCKET_COUNT, LATENCY_THRESHOLDS } from './latency-buckets'
import { RETENTION_HOURS, windowStart } from './stats-window'

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0]

const LOCK = `pg_try_advisory_xact_lock(hashtext('toolroom.call-stats'))`
/** Hours recomputed per transaction: bounded so a large backlog commits progress as it goes. */
const HOURS_PER_BATCH = Number(process.env.TOOLROOM_STATS_HOURS_PER_BATCH ?? 12)
const TX_TIMEOUT_MS = Number(process.env.TOOLROOM_STATS_TX_TIMEOUT_MS ?? 600_000)

export interface RollupResult {
  /** False when another process held the lock: it is doing the same work. */
  ran: boolean
  hoursRecomputed: number
  /** Whether the 7-day totals changed (and so the stats version moved). */
  totalsChanged: boolean
  toolsUpdated: number
  rollupRowsDropped: number
  ms: number
}

const textArray = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`

// One pass over each hour's calls, grouped five ways at once; the latency histogram per group is
// built from per-bucket counts and laid out densely (one slot per bucket).
export const RECOMPUTE_HOURS_SQL = `
INSERT INTO "CallStatHourly" (dimension, key, hour, calls, failures, refused, "latencyCount", "latencySumMs", "latencyHistogram")
WITH c AS (
  SELECT hour, tool, agent, unit, namespace, failed, refused, latency,
    width_bucket(latency, '{${LATENCY_THRESHOLDS.join(',')}}'::int[]) AS bucket
  FROM (
    SELECT h.hour, c."toolId" AS tool, c."agentId"::text AS agent,
      CASE WHEN c.unit IS NOT NULL THEN c."agentNamespace" || '/' || c.unit END AS unit,
      c."toolNamespace" AS namespace,
      c.outcome = ANY(${textArray(FAILURE_OUTCOMES)}) AS failed,
      c.outcome = ANY(${textArray(REFUSED_OUTCOMES)}) AS refused,
      CASE WHEN c.outcome = ANY(${textArray(TIMED_OUTCOMES)}) AND c."latencyMs" >= 0 THEN c."latencyMs" END AS latency
    FROM unnest($1::timestamptz[]) AS h(hour)
    JOIN "ToolCall" c ON c."startedAt" >= h.hour AND c."startedAt" < h.hour + interval '1 hour'
    WHERE c.outcome <> ALL(${textArray(UNCOUNTED_OUTCOMES)})
  ) AS raw
), g AS (
  SELECT hour,
    CASE WHEN GROUPING(tool) = 0 THEN 'tool' WHEN GROUPING(agent) = 0 THEN 'agent' WHEN GROUPING(unit) = 0 THEN 'unit'
         WHEN GROUPING(namespace) = 0 THEN 'namespace' ELSE 'all' END AS dimension,
    coalesce(tool, agent, unit, namespace, '') AS key, bucket,
    count(*) AS calls, count(*) FILTER (WHERE failed) AS failures, count(*) FILTER (WHERE refused) AS refused,
    count(latency) AS latency_count, sum(latency) AS latency_sum
  FROM c
  GROUP BY GROUPING SETS ((hour, tool, bucket), (hour, agent, bucket), (hour, unit, bucket), (hour, namespace, bucket), (hour, bucket))
  HAVING GROUPING(unit) = 1 OR unit IS NOT NULL
), f AS (
  SELECT dimension, key, hour, sum(calls) AS calls, sum(failures) AS failures, sum(refused) AS refused,
    sum(latency_count) AS latency_count, coalesce(sum(latency_sum), 0) AS latency_sum,
    coalesce(jsonb_object_agg(bucket, latency_count) FILTER (WHERE bucket IS NOT NULL), '{}'::jsonb) AS histogram
  FROM g GROUP BY dimension, key, hour
)
SELECT dimension, key, hour, calls::int, failures::int, refused::int, latency_count::int, latency_sum::bigint,
  ARRAY(SELECT coalesce((histogram ->> i::text)::int, 0) FROM generate_series(0, ${LATENCY_BUCKET_COUNT - 1}) AS i)
FROM f`

async function locked<T>(work: (tx: Tx) => Promise<T>): Promise<{ ran: false } | { ran: true; value: T }> {
  return prisma.$transaction(
    async (tx) => {
      const [{ got }] = await tx.$queryRawUnsafe<Array<{ got: boolean }>>(`SELECT ${LOCK} AS got`)
      if (!got) return { ran: false as const }
      return { ran: true as const, value: await work(tx) }
    },
    { timeout: TX_TIMEOUT_MS, maxWait: 10_000 },
  )
}

/** Redoes up to one batch of dirty hours, newest first; returns how many (0 when none are left). */
async function recomputeDirtyBatch(now: Date): Promise<{ ran: boolean; hours: number }> {
  const result = await locked(async (tx) => {
    const oldest = new Date(now.getTime() - RETENTION_HOURS * 3_600_000)
    const latest = new Date(now.getTime() + 24 * 3_600_000)
    // Hours outside the kept window are forgotten; hours in it are claimed before their calls are
    // read, so a call committed after this point leaves its own dirty row for the next run.
    await tx.$executeRawUnsafe(`DELETE FROM "CallStatDirtyHour" WHERE hour < $1 OR hour > $2`, oldest, latest)
    const claimed = await tx.$queryRawUnsafe<Array<{ hour: Date }>>(
      `DELETE FROM "CallStatDirtyHour" WHERE hour IN (SELECT DISTINCT hour FROM "CallStatDirtyHour" ORDER BY hour DESC LIMIT $1) RETURNING hour`,
      HOURS_PER_BATCH,
    )
    const hours = [...new Set(claimed.map((r) => r.hour.toISOString()))]
    if (hours.length === 0) return 0
    // The grouping holds a few thousand groups per hour: keep it in memory.
    await tx.$executeRawUnsafe(`SET LOCAL work_mem = '64MB'`)
    await tx.$executeRawUnsafe(`DELETE FROM "CallStatHourly" WHERE hour = ANY($1::timestamptz[])`, hours)
    await tx.$executeRawUnsafe(RECOMPUTE_HOURS_SQL, hours)
    return hours.length
  })
  return result.ran ? { ran: true, hours: result.value } : { ran: false, hours: 0 }
}

/** 7-day totals, Tool status fields and retention; returns what changed. */
async function refreshTotals(now: Date, hoursRecomputed: number) {
  return locked(async (tx) => {
    const start = windowStart(now)
    // Nothing new and the window has not moved: the totals stand (the common idle minute).
    const [state] = await tx.$queryRawUnsafe<Array<{ totalsWindowStart: Date | null }>>(`SELECT "totalsWindowStart" FROM "CallStatState" WHERE id = 1`)
    if (hoursRecomputed === 0 && state?.totalsWindowStart?.getTime() === start.getTime()) return { totalsChanged: false, toolsUpdated: 0, rollupRowsDropped: 0 }
    const [{ changed }] = await tx.$queryRawUnsafe<Array<{ changed: bigint }>>(
      `WITH fresh AS (
         SELECT dimension, key, sum(calls)::int AS calls, sum(failures)::int AS failures, sum(refused)::int AS refused
         FROM "CallStatHourly" WHERE hour >= $1 AND hour <= $2 GROUP BY dimension, key
       ), upserted AS (
         INSERT INTO "CallStat7d" (dimension, key, calls, failures, refused) SELECT * FROM fresh
         ON CONFLICT (dimension, key) DO UPDATE SET calls = excluded.calls, failures = excluded.failures, refused = excluded.refused
         WHERE ("CallStat7d".calls, "CallStat7d".failures, "CallStat7d".refused) IS DISTINCT FROM (excluded.calls, excluded.failures, excluded.refused)
         RETURNING 1
       ), dropped AS (
         DELETE FROM "CallStat7d" s WHERE NOT EXISTS (SELECT 1 FROM fresh f WHERE f.dimension = s.dimension AND f.key = s.key) RETURNING 1
       )
       SELECT (SELECT count(*) FROM upserted) + (SELECT count(*) FROM dropped) AS changed`,
      start,
      now,
    )
    const totalsChanged = Number(changed) > 0
    await tx.$executeRawUnsafe(
      `UPDATE "CallStatState" SET version = version + $3, "computedAt" = $1, "totalsWindowStart" = $2 WHERE id = 1`,
      now,
      start,
      totalsChanged ? 1 : 0,
    )
    const rollupRowsDropped = await tx.$executeRawUnsafe(`DELETE FROM "CallStatHourly" WHERE hour < $1`, new Date(now.getTime() - RETENTION_HOURS * 3_600_000))

    // A Tool's name is its canonical id, which is what calls record. These writes are not registry
    // changes (see the migration): cached effective tool sets take their numbers from the stats cache.
    await tx.$executeRawUnsafe(`SELECT set_config('toolroom.stats_write', 'on', true)`)
    const toolsUpdated = await tx.$executeRawUnsafe(
      `UPDATE "Tool" t SET "totalCalls7d" = s.calls, "failureRate7d" = s.rate
       FROM (SELECT t2.id, coalesce(s.calls, 0) AS calls, CASE WHEN s.calls > 0 THEN s.failures::float8 / s.calls END AS rate
             FROM "Tool" t2 LEFT JOIN "CallStat7d" s ON s.dimension = 'tool' AND s.key = t2.name) s
       WHERE t.id = s.id AND (t."totalCalls7d", t."failureRate7d") IS DISTINCT FROM (s.calls, s.rate)`,
    )
    await tx.$executeRawUnsafe(`SELECT set_config('toolroom.stats_write', 'off', true)`)
    return { totalsChanged, toolsUpdated, rollupRowsDropped }
  })
}

/** One full rollup: every dirty hour, then the totals. Safe to run at any time, from any process. */
export async function rollupCallStats(now: () => Date = () => new Date()): Promise<RollupResult> {
  const started = performance.now()
  let hoursRecomputed = 0
  for (;;) {
    const batch = await recomputeDirtyBatch(now())
    if (!batch.ran) return { ran: false, hoursRecomputed, totalsChanged: false, toolsUpdated: 0, rollupRowsDropped: 0, ms: performance.now() - started }
    if (batch.hours === 0) break
    hoursRecomputed += batch.hours
  }
  const totals = await refreshTotals(now(), hoursRecomputed)
  if (!totals.ran) return { ran: false, hoursRecomputed, totalsChanged: false, toolsUpdated: 0, rollupRowsDropped: 0, ms: performance.now() - started }
  return { ran: true, hoursRecomputed, ...totals.value, ms: Math.round(performance.now() - started) }
}
