// The statistics rollup: turns ToolCall rows into hourly per-dimension rows (CallStatHourly), the
// 7-day totals (CallStat7d) and the Tool status fields. Two ways in, both logged by triggers on
// ToolCall (see the call_stats migrations), so late calls count whatever their startedAt:
//   - inserted calls are added to their hourly rows (add-only: counts, failures, refusals, latency
//     sums and histogram buckets all add up exactly), from the ids the insert log names, so a minute
//     of late calls spread over a week costs what those calls are, not what their hours hold;
//   - hours whose calls were changed or deleted (and hours a repair names) are recomputed in full.
// Each step is a transaction under one advisory lock: any number of workers may run it, one does the
// work. A step reads one snapshot (repeatable read), so a call is either in a recomputed hour or
// added, never both: calls of hours awaiting a recompute are left to it.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Kysely, RawBuilder, SelectType } from 'kysely'
import { db, sql, sqlIn, type Tables } from '@/lib/sql'
import { FAILURE_OUTCOMES, REFUSED_OUTCOMES, TIMED_OUTCOMES, UNCOUNTED_OUTCOMES } from './call-outcomes'
import { LATENCY_BUCKET_COUNT, LATENCY_THRESHOLDS } from './latency-buckets'
import { type HourRange, type RangeMove, RETENTION_HOURS, rangeMoves, totalsRange as totalsRangeAt } from './stats-window'
import { callToolStatKeySql, toolResourceStatKeySql } from './tool-stat-key-sql'
import { PERSON_TOTALS_DIMENSION, personTotalsKeySql } from './person-stat-key-sql'

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0]

const LOCK = 'toolroom.call-stats'
// Work per transaction is bounded, so a large backlog commits progress as it goes.
/** Hours recomputed per transaction. */
const hoursPerBatch = () => config().TOOLROOM_STATS_HOURS_PER_BATCH
/** Inserted calls added per transaction (whole insert-log rows: at least one, then up to this many calls). */
const callsPerBatch = () => config().TOOLROOM_STATS_CALLS_PER_BATCH
/** An hour with at least this many inserted calls waiting, and a quarter of what it holds, is recomputed instead. */
const recomputeMinCalls = () => config().TOOLROOM_STATS_RECOMPUTE_MIN_CALLS

export interface RollupResult {
  /** False when another process held the lock: it is doing the same work. */
  ran: boolean
  hoursRecomputed: number
  /** Inserted calls added to their hours without recomputing them. */
  callsAdded: number
  /**
   * Calls counted by recomputing hours: every call of each recomputed hour, new or not. An hour that
   * got many calls at once is recomputed instead of having them added (moveBulkHoursToRecompute), so
   * what a run counted is callsAdded plus these.
   */
  callsInRecomputedHours: number
  /** Whether the 7-day totals changed (and so the stats version moved). */
  totalsChanged: boolean
  toolsUpdated: number
  rollupRowsDropped: number
  ms: number
}

const textArray = (values: readonly string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`)

/** Per tool, hour, error code and rollup step, this many distinct messages are kept apart; the rest count as "other messages". */
export const MESSAGES_KEPT = 10
/** Characters of an error message the breakdown keeps (messages differing later count as one). */
export const MESSAGE_CHARS = 200

// The hourly pass is one statement the query builder's methods cannot hold (GROUPING SETS feeding
// three upserts through data-modifying CTEs, a lateral lookup per hour), so it is written with
// Kysely's sql tag; every table and column it names goes through these, checked against the
// generated table types (lib/generated/kysely), so a renamed column fails the build.
type Column<T extends keyof Tables> = keyof Tables[T] & string
const table = (name: keyof Tables) => sql.table(name)
/** A ToolCall column of the calls being rolled up (aliased `c`). */
const call = <N extends Column<'ToolCall'>>(name: N) => sql.ref<SelectType<Tables['ToolCall'][N]>>(`c.${name}`)
const column = <T extends keyof Tables>(_table: T, name: Column<T>, alias?: string) => sql.ref(alias ? `${alias}.${name}` : name)
const hourlyColumn = (name: Column<'CallStatHourly'>, alias?: string) => column('CallStatHourly', name, alias)
const totalsColumn = (name: Column<'CallStat7d'>, alias?: string) => column('CallStat7d', name, alias)

/**
 * Hourly rows of the calls `calls` yields (a FROM item exposing ToolCall rows as `c` and their hour
 * as `hour`): one pass grouped seven ways at once; the latency histogram per group is built from
 * per-bucket counts and laid out densely (one slot per bucket), or with `sparse` kept as the buckets
 * touched and their counts (f.buckets, f.bucket_counts: what histogramPlusSql adds to a stored row)
 * and laid out densely only in the INSERT. `ctes` come first (data-modifying ones included), then
 * `tail(rows)`, given the INSERT of the hourly rows. The same pass also groups
 * the tool failure view's breakdowns (CallStatToolHourly: per tool by agent, and its failures by
 * error code and message) and the calls by person (CallStatPersonHourly: per person by agent; calls
 * made for nobody are left out, the read derives them),
 * written in the same statement, so every table always holds the same calls. (Grouping them in the
 * one pass keeps the calls streaming through a single aggregation instead of being materialised for
 * several: that made a full recompute 3.5 times slower in the bench.)
 */
function hourlyRowsSql(
  ctes: RawBuilder<unknown> | null,
  calls: RawBuilder<unknown>,
  tail: (rows: RawBuilder<unknown>) => RawBuilder<unknown>,
  { sparse = false }: { sparse?: boolean } = {},
) {
  const tool = (name: Column<'CallStatToolHourly'>, alias?: string) => column('CallStatToolHourly', name, alias)
  const person = (name: Column<'CallStatPersonHourly'>, alias?: string) => column('CallStatPersonHourly', name, alias)
  const slots = sql`generate_series(0, ${sql.lit(LATENCY_BUCKET_COUNT - 1)}) AS i`
  const rows = sql`INSERT INTO ${table('CallStatHourly')} AS h (${sql.join(
    (['dimension', 'key', 'hour', 'calls', 'failures', 'refused', 'latencyCount', 'latencySumMs', 'latencyHistogram'] as const).map((n) => hourlyColumn(n)),
  )})
SELECT dimension, key, hour, calls::int, failures::int, refused::int, latency_count::int, latency_sum::bigint,
  ${
    sparse
      ? sql`ARRAY(SELECT coalesce(bucket_counts[array_position(buckets, i)], 0) FROM ${slots})`
      : sql`ARRAY(SELECT coalesce((histogram ->> i::text)::int, 0) FROM ${slots})`
  }
FROM f`
  return sql`
WITH ${ctes ? sql`${ctes},` : sql``} c AS (
  SELECT hour, tool, agent, unit, namespace, failed, refused, latency, error_code, error_message, person_issuer, person_subject, person_name,
    width_bucket(latency, ${sql.raw(`'{${LATENCY_THRESHOLDS.join(',')}}'::int[]`)}) AS bucket
  FROM (
    SELECT hour, ${callToolStatKeySql(call('toolKey'), call('toolId'))} AS tool, ${call('agentId')}::text AS agent,
      CASE WHEN ${call('unit')} IS NOT NULL THEN ${call('agentNamespace')} || '/' || ${call('unit')} END AS unit,
      ${call('toolNamespace')} AS namespace,
      ${call('outcome')} = ANY(${textArray(FAILURE_OUTCOMES)}) AS failed,
      ${call('outcome')} = ANY(${textArray(REFUSED_OUTCOMES)}) AS refused,
      CASE WHEN ${call('outcome')} = ANY(${textArray(TIMED_OUTCOMES)}) AND ${call('latencyMs')} >= 0 THEN ${call('latencyMs')} END AS latency,
      CASE WHEN ${call('outcome')} = ANY(${textArray(FAILURE_OUTCOMES)}) THEN coalesce(${call('errorCode')}, '') END AS error_code,
      CASE WHEN ${call('outcome')} = ANY(${textArray(FAILURE_OUTCOMES)}) THEN left(coalesce(${call('errorMessage')}, ''), ${sql.lit(MESSAGE_CHARS)}) END AS error_message,
      -- Both parts or neither. A call made for nobody gets no person row: the read derives "no
      -- person" from the agents' totals (docs/design/statistics.md#calls-by-person).
      CASE WHEN ${call('onBehalfOfSubject')} IS NOT NULL THEN coalesce(${call('onBehalfOfIssuer')}, '') END AS person_issuer,
      ${call('onBehalfOfSubject')} AS person_subject, ${call('onBehalfOfDisplayName')} AS person_name
    FROM ${calls}
    WHERE ${call('outcome')} <> ALL(${textArray(UNCOUNTED_OUTCOMES)})
  ) AS raw
), g AS (
  SELECT hour, tool, agent, error_code, error_message, person_issuer, person_subject, max(person_name) AS person_name,
    -- Which grouping a row is: the five dimensions (by latency bucket), a tool by agent, a tool's failures by error, a person by agent.
    CASE WHEN GROUPING(error_code) = 0 THEN 'error' WHEN GROUPING(person_subject) = 0 THEN 'person' WHEN GROUPING(bucket) = 1 THEN 'agent' END AS part,
    CASE WHEN GROUPING(tool) = 0 THEN 'tool' WHEN GROUPING(agent) = 0 THEN 'agent' WHEN GROUPING(unit) = 0 THEN 'unit'
         WHEN GROUPING(namespace) = 0 THEN 'namespace' ELSE 'all' END AS dimension,
    coalesce(tool, agent, unit, namespace, '') AS key, bucket,
    count(*) AS calls, count(*) FILTER (WHERE failed) AS failures, count(*) FILTER (WHERE refused) AS refused,
    count(latency) AS latency_count, sum(latency) AS latency_sum
  FROM c
  GROUP BY GROUPING SETS ((hour, tool, bucket), (hour, agent, bucket), (hour, unit, bucket), (hour, namespace, bucket), (hour, bucket),
    (hour, tool, agent), (hour, tool, error_code, error_message), (hour, person_issuer, person_subject, agent))
  HAVING (GROUPING(unit) = 1 OR unit IS NOT NULL) AND (GROUPING(error_code) = 1 OR error_code IS NOT NULL)
    AND (GROUPING(person_subject) = 1 OR person_subject IS NOT NULL)
), f AS (
  SELECT dimension, key, hour, sum(calls) AS calls, sum(failures) AS failures, sum(refused) AS refused,
    sum(latency_count) AS latency_count, coalesce(sum(latency_sum), 0) AS latency_sum,
    ${
      sparse
        ? sql`array_agg(bucket ORDER BY bucket) FILTER (WHERE bucket IS NOT NULL) AS buckets,
    array_agg(latency_count ORDER BY bucket) FILTER (WHERE bucket IS NOT NULL) AS bucket_counts`
        : sql`coalesce(jsonb_object_agg(bucket, latency_count) FILTER (WHERE bucket IS NOT NULL), '{}'::jsonb) AS histogram`
    }
  FROM g WHERE part IS NULL GROUP BY dimension, key, hour
), tool_parts AS (
  INSERT INTO ${table('CallStatToolHourly')} AS t (${sql.join((['toolKey', 'hour', 'part', 'value', 'detail', 'calls', 'failures', 'refused'] as const).map((n) => tool(n)))})
  SELECT tool, hour, 'agent', agent, '', calls::int, failures::int, refused::int FROM g WHERE part = 'agent'
  UNION ALL
  SELECT tool, hour, 'error', error_code, detail, sum(failures)::int, sum(failures)::int, 0
  FROM (
    SELECT hour, tool, error_code, failures,
      CASE WHEN row_number() OVER (PARTITION BY hour, tool, error_code ORDER BY failures DESC, error_message) <= ${sql.lit(MESSAGES_KEPT)} THEN error_message ELSE '' END AS detail
    FROM g WHERE part = 'error'
  ) AS ranked
  GROUP BY hour, tool, error_code, detail
  ON CONFLICT (${sql.join((['toolKey', 'part', 'value', 'detail', 'hour'] as const).map((n) => tool(n)))}) DO UPDATE SET
    ${tool('calls')} = ${tool('calls', 't')} + excluded.${tool('calls')}, ${tool('failures')} = ${tool('failures', 't')} + excluded.${tool('failures')},
    ${tool('refused')} = ${tool('refused', 't')} + excluded.${tool('refused')}
  RETURNING 1
), person_parts AS (
  INSERT INTO ${table('CallStatPersonHourly')} AS p (${sql.join((['issuer', 'subject', 'agentId', 'hour', 'displayName', 'calls', 'failures', 'refused'] as const).map((n) => person(n)))})
  SELECT person_issuer, person_subject, agent, hour, person_name, calls::int, failures::int, refused::int FROM g WHERE part = 'person'
  -- greatest() passes over nulls and gives what max() gives when the hour is recomputed.
  ON CONFLICT (${sql.join((['issuer', 'subject', 'agentId', 'hour'] as const).map((n) => person(n)))}) DO UPDATE SET
    ${person('displayName')} = greatest(${person('displayName', 'p')}, excluded.${person('displayName')}),
    ${person('calls')} = ${person('calls', 'p')} + excluded.${person('calls')}, ${person('failures')} = ${person('failures', 'p')} + excluded.${person('failures')},
    ${person('refused')} = ${person('refused', 'p')} + excluded.${person('refused')}
  RETURNING 1
)
${tail(rows)}`
}

/**
 * The per-person rows a statement of hourlyRowsSql grouped (g, part `person`) as changes to the
 * totals: dimension `person`, keyed by person and agent (person-stat-key-sql.ts), by `sign`.
 */
const personChangesSql = (rows: RawBuilder<unknown>, sign: 1 | -1, names = { issuer: 'person_issuer', subject: 'person_subject', agent: 'agent' }) =>
  sql`SELECT ${sql.lit(PERSON_TOTALS_DIMENSION)} AS dimension, ${personTotalsKeySql(sql.ref(names.issuer), sql.ref(names.subject), sql.ref(names.agent))} AS key,
    hour, ${sql.lit(sign)} * calls AS calls, ${sql.lit(sign)} * failures AS failures, ${sql.lit(sign)} * refused AS refused FROM ${rows}`

/**
 * What a statement's change to CallStatHourly does to the 7-day totals: `changes` (a FROM item of
 * dimension, key, hour, calls, failures, refused; negative for what went) summed per key over the
 * hours the totals cover (`range`; none when they are to be summed afresh), added to CallStat7d.
 * TOTALS_RESULT then answers how many keys it moved (`totals`) and those left at no calls (`emptied`).
 */
const totalsDeltaSql = (changes: RawBuilder<unknown>, range: TotalsRangeParam) => sql`
delta AS (
  SELECT dimension, key, sum(calls)::int AS calls, sum(failures)::int AS failures, sum(refused)::int AS refused
  FROM ${changes} WHERE hour BETWEEN ${range.first}::timestamptz AND ${range.last}::timestamptz
  GROUP BY dimension, key
  HAVING sum(calls) <> 0 OR sum(failures) <> 0 OR sum(refused) <> 0
), totals AS (
  INSERT INTO ${table('CallStat7d')} AS s (${sql.join((['dimension', 'key', 'calls', 'failures', 'refused'] as const).map((n) => totalsColumn(n)))})
  SELECT dimension, key, calls, failures, refused FROM delta
  ON CONFLICT (${totalsColumn('dimension')}, ${totalsColumn('key')}) DO UPDATE SET
    ${totalsColumn('calls')} = ${totalsColumn('calls', 's')} + excluded.${totalsColumn('calls')},
    ${totalsColumn('failures')} = ${totalsColumn('failures', 's')} + excluded.${totalsColumn('failures')},
    ${totalsColumn('refused')} = ${totalsColumn('refused', 's')} + excluded.${totalsColumn('refused')}
  RETURNING ${totalsColumn('dimension', 's')} AS dimension, ${totalsColumn('key', 's')} AS key, ${totalsColumn('calls', 's')} AS calls
)`

const TOTALS_RESULT = sql`(SELECT count(*) FROM totals)::int AS totals,
  (SELECT coalesce(jsonb_agg(jsonb_build_array(dimension, key)), '[]'::jsonb) FROM totals WHERE calls = 0) AS emptied`

/** The hours the totals cover, or nulls (which match no hour) when they are to be summed afresh. */
interface TotalsRangeParam {
  first: Date | null
  last: Date | null
}

interface TotalsChange {
  totals: number
  emptied: Array<[string, string]>
}

/** The figures of hourly rows aliased `alias`, under their own names. */
const hourlyFigures = (alias: string) =>
  sql.join((['dimension', 'key', 'hour', 'calls', 'failures', 'refused'] as const).map((n) => sql`${hourlyColumn(n, alias)} AS ${sql.ref(n)}`))

/**
 * Recomputes `hours` in full. The hourly rows are replaced in place (rows the hours no longer have
 * are deleted), in one statement that also reads what they held, so the totals move by the
 * difference: a recompute that finds what was there changes nothing. The tool and person breakdowns
 * of the hours were deleted first.
 */
const recomputeHoursSql = (hours: string[], range: TotalsRangeParam) =>
  hourlyRowsSql(
    sql`old AS (SELECT ${hourlyFigures('o')} FROM ${table('CallStatHourly')} AS o WHERE ${hourlyColumn('hour', 'o')} = ANY(${hours}::timestamptz[]))`,
    sql`unnest(${hours}::timestamptz[]) AS h(hour) JOIN ${table('ToolCall')} c ON ${call('startedAt')} >= h.hour AND ${call('startedAt')} < h.hour + interval '1 hour'`,
    (rows) => sql`, upserted AS (
  ${rows}
  ON CONFLICT (${hourlyColumn('dimension')}, ${hourlyColumn('key')}, ${hourlyColumn('hour')}) DO UPDATE SET ${sql.join(
    (['calls', 'failures', 'refused', 'latencyCount', 'latencySumMs', 'latencyHistogram'] as const).map(
      (n) => sql`${hourlyColumn(n)} = excluded.${hourlyColumn(n)}`,
    ),
  )}
  RETURNING 1
), removed AS (
  DELETE FROM ${table('CallStatHourly')} h USING old
  WHERE ${hourlyColumn('dimension', 'h')} = old.dimension AND ${hourlyColumn('key', 'h')} = old.key AND ${hourlyColumn('hour', 'h')} = old.hour
    AND NOT EXISTS (SELECT 1 FROM f WHERE f.dimension = old.dimension AND f.key = old.key AND f.hour = old.hour)
  RETURNING 1
), ${totalsDeltaSql(
      sql`(SELECT dimension, key, hour, calls, failures, refused FROM f
      UNION ALL SELECT dimension, key, hour, -calls, -failures, -refused FROM old
      UNION ALL ${personChangesSql(sql`g WHERE part = 'person'`, 1)}) AS changed`,
      range,
    )}
SELECT (SELECT count(*) FROM upserted)::int + (SELECT count(*) FROM removed)::int AS rows,
  (SELECT coalesce(sum(calls), 0) FROM f WHERE dimension = 'all')::int AS calls, ${TOTALS_RESULT}`,
  ) as RawBuilder<TotalsChange & { rows: number; calls: number }>

/**
 * Deletes the per-person rows of `hours` before they are recomputed, taking them out of the
 * per-person totals (the recompute adds back what it finds): the breakdown rows are written by
 * adding, so a recomputed hour starts from none.
 */
const deletePersonHoursSql = (hours: string[], range: TotalsRangeParam) => {
  const person = (name: Column<'CallStatPersonHourly'>) => column('CallStatPersonHourly', name)
  return sql`WITH gone AS (
  DELETE FROM ${table('CallStatPersonHourly')} WHERE ${person('hour')} = ANY(${hours}::timestamptz[])
  RETURNING ${person('issuer')} AS issuer, ${person('subject')} AS subject, ${person('agentId')} AS agent, ${person('hour')} AS hour,
    ${person('calls')} AS calls, ${person('failures')} AS failures, ${person('refused')} AS refused
), ${totalsDeltaSql(sql`(${personChangesSql(sql`gone`, -1, { issuer: 'issuer', subject: 'subject', agent: 'agent' })}) AS changed`, range)}
SELECT ${TOTALS_RESULT}` as RawBuilder<TotalsChange>
}

/**
 * `histogram` (an hourly row's dense histogram) plus the sparse counts of f (`buckets`, ascending, and
 * `bucket_counts`). A late call is mostly its group's only call, so one bucket is touched: that slot
 * is added in place from slices of the array (no per-slot work); more buckets go slot by slot.
 */
const histogramPlusSql = (histogram: RawBuilder<unknown>) => {
  const b = sql`f.buckets[1]`
  return sql`CASE
      WHEN f.buckets IS NULL THEN ${histogram}
      WHEN cardinality(f.buckets) = 1 AND cardinality(${histogram}) = ${sql.lit(LATENCY_BUCKET_COUNT)} AND array_lower(${histogram}, 1) = 1
        THEN ${histogram}[1:${b}] || (${histogram}[${b} + 1] + f.bucket_counts[1]) || ${histogram}[${b} + 2:${sql.lit(LATENCY_BUCKET_COUNT)}]
      ELSE ARRAY(
        SELECT coalesce(${histogram}[i + 1], 0) + coalesce(f.bucket_counts[array_position(f.buckets, i)], 0)
        FROM generate_series(0, greatest(${sql.lit(LATENCY_BUCKET_COUNT)}, cardinality(${histogram})) - 1) AS i)
    END`
}

/**
 * Claims the oldest insert-log rows, up to `calls` calls (at least one row), and adds their calls to
 * the hourly rows. Calls of hours outside the kept window (`oldest`..`latest`, as for recomputed
 * hours), and calls of hours a full recompute covers (`recomputed` in this step, or still logged),
 * are skipped: the recompute counts them. The hours the totals cover (`range`) get the added calls
 * too. Answers how many log rows and calls it took.
 */
const addInsertedSql = (p: { calls: number; oldest: Date; latest: Date; recomputed: string[]; range: TotalsRangeParam }) => {
  const log = (name: Column<'CallStatInsertLog'>) => column('CallStatInsertLog', name)
  return hourlyRowsSql(
    sql`claimed AS (
    DELETE FROM ${table('CallStatInsertLog')} WHERE ${log('id')} IN (
      SELECT id FROM (
        SELECT id, sum(cardinality(ids)) OVER (ORDER BY id) - cardinality(ids) AS before
        FROM (SELECT ${log('id')} AS id, ${log('callIds')} AS ids FROM ${table('CallStatInsertLog')} ORDER BY ${log('id')} LIMIT ${p.calls}) AS oldest
      ) AS l WHERE before < ${p.calls})
    RETURNING ${log('hour')} AS hour, ${log('callIds')} AS ids
  ), recomputed AS (
    SELECT unnest(${p.recomputed}::timestamptz[]) AS hour UNION SELECT DISTINCT ${column('CallStatDirtyHour', 'hour')} FROM ${table('CallStatDirtyHour')}
  ), logged AS (
    SELECT hour, array_agg(id) AS ids FROM claimed, unnest(claimed.ids) AS id
    WHERE hour BETWEEN ${p.oldest}::timestamptz AND ${p.latest}::timestamptz AND hour NOT IN (SELECT hour FROM recomputed)
    GROUP BY hour
  ), added AS (
    -- Looked up hour by hour, by id within the hour: the call log is partitioned by day
    -- (docs/design/call-log.md), and each lookup runs in the one partition its hour names and reads
    -- the calls by key. (Joined as a whole, the planner hashed the ids and scanned every day kept,
    -- so adding a day's calls cost what the window holds: docs/design/statistics.md#rollup-cost.)
    -- OFFSET 0 keeps the lookup a subquery run per hour instead of a join the planner may hash.
    SELECT c.*, logged.hour FROM logged CROSS JOIN LATERAL (
      SELECT * FROM ${table('ToolCall')} c
      WHERE ${call('startedAt')} >= logged.hour AND ${call('startedAt')} < logged.hour + interval '1 hour' AND ${call('id')} = ANY(logged.ids)
      OFFSET 0
    ) AS c
  )`,
    sql`added AS c`,
    (rows) => sql`, updated AS (
  UPDATE ${table('CallStatHourly')} AS h SET ${sql.join(
    (
      [
        ['calls', 'calls'],
        ['failures', 'failures'],
        ['refused', 'refused'],
        ['latencyCount', 'latency_count'],
        ['latencySumMs', 'latency_sum'],
      ] as const
    ).map(([n, from]) => sql`${hourlyColumn(n)} = ${hourlyColumn(n, 'h')} + f.${sql.ref(from)}`),
  )},
    ${hourlyColumn('latencyHistogram')} = ${histogramPlusSql(hourlyColumn('latencyHistogram', 'h'))}
  FROM f WHERE ${hourlyColumn('dimension', 'h')} = f.dimension AND ${hourlyColumn('key', 'h')} = f.key AND ${hourlyColumn('hour', 'h')} = f.hour
  RETURNING ${hourlyColumn('dimension', 'h')} AS dimension, ${hourlyColumn('key', 'h')} AS key, ${hourlyColumn('hour', 'h')} AS hour
), inserted AS (
  ${rows}
  -- The groups the update found no row for (the rollup's lock keeps other writers out); asked of the
  -- update's own answer, a hash of what it wrote, not an index probe per group again.
  WHERE (f.dimension, f.key, f.hour) NOT IN (SELECT dimension, key, hour FROM updated)
  RETURNING 1
), ${totalsDeltaSql(
      sql`(SELECT dimension, key, hour, calls, failures, refused FROM f UNION ALL ${personChangesSql(sql`g WHERE part = 'person'`, 1)}) AS changed`,
      p.range,
    )}
SELECT (SELECT count(*) FROM claimed)::int AS entries, (SELECT count(*) FROM added c WHERE ${call('outcome')} <> ALL(${textArray(UNCOUNTED_OUTCOMES)}))::int AS calls,
  (SELECT count(*) FROM updated)::int + (SELECT count(*) FROM inserted)::int AS groups, ${TOTALS_RESULT}`,
    { sparse: true },
  ) as RawBuilder<TotalsChange & { entries: number; calls: number; groups: number }>
}

/**
 * Adding a call costs a lookup by id; recomputing an hour reads its rows in index order. An hour that
 * got many calls at once (a backlog after the worker was down, a bulk import) is cheaper to
 * recompute: at least `minCalls` calls waiting, and at least a quarter of what the hour already holds. Its
 * log rows become a recompute of the hour, which gives the same rows. Only hours of the kept window
 * (`oldest`…`latest`) move: the log rows of others are claimed and forgotten by the adding step,
 * whereas a recompute would write an old hour's rows only for the upkeep to delete them.
 */
async function moveBulkHoursToRecompute(typed: Kysely<Tables>, minCalls: number, oldest: Date, latest: Date): Promise<void> {
  await typed
    .with('pending', (q) =>
      q
        .selectFrom('CallStatInsertLog')
        .select((eb) => ['hour', eb.fn.sum<bigint>(eb.fn<number>('cardinality', ['callIds'])).as('calls')])
        .where((eb) => eb.between('hour', oldest, latest))
        .groupBy('hour'),
    )
    .with('bulk', (q) =>
      q
        .selectFrom('pending as p')
        .leftJoin('CallStatHourly as h', (join) => join.on('h.dimension', '=', 'all').on('h.key', '=', '').onRef('h.hour', '=', 'p.hour'))
        .select('p.hour')
        .where((eb) => eb('p.calls', '>=', eb.fn<bigint>('greatest', [eb.val(minCalls), sql<number>`${eb.fn.coalesce('h.calls', sql.lit(0))} / 4`]))),
    )
    .with('moved', (q) =>
      q.deleteFrom('CallStatInsertLog').using('bulk').whereRef('CallStatInsertLog.hour', '=', 'bulk.hour').returning('CallStatInsertLog.hour'),
    )
    .insertInto('CallStatDirtyHour')
    .columns(['hour'])
    .expression((eb) => eb.selectFrom('moved').select('hour').distinct())
    .execute()
}

/** True for PostgreSQL's serialization failure: a concurrent rollup moved first; its work stands. */
function isSerializationFailure(e: unknown): boolean {
  if (e instanceof Prisma.PrismaClientKnownRequestError)
    return e.code === 'P2034' || (e.meta as { code?: string } | undefined)?.code === '40001' || /40001|could not serialize/.test(e.message)
  return e instanceof Error && /40001|could not serialize/.test(e.message)
}

async function locked<T>(work: (tx: Tx) => Promise<T>, isolationLevel?: Prisma.TransactionIsolationLevel): Promise<{ ran: false } | { ran: true; value: T }> {
  try {
    return await prisma.$transaction(
      async (tx) => {
        const { got } = await sqlIn(tx)
          .selectNoFrom(sql<boolean>`pg_try_advisory_xact_lock(hashtext(${LOCK}))`.as('got'))
          .executeTakeFirstOrThrow()
        if (!got) return { ran: false as const }
        return { ran: true as const, value: await work(tx) }
      },
      { timeout: config().TOOLROOM_STATS_TX_TIMEOUT_MS, maxWait: 10_000, ...(isolationLevel ? { isolationLevel } : {}) },
    )
  } catch (e) {
    // A snapshot taken just before another run committed and let go of the lock: that run did the work.
    if (isSerializationFailure(e)) return { ran: false }
    throw e
  }
}

/** Keys whose totals a statement brought to no calls: they leave CallStat7d, as keys without calls never enter it. */
async function dropEmptied(typed: Kysely<Tables>, emptied: Array<[string, string]>): Promise<void> {
  if (emptied.length === 0) return
  await typed
    .deleteFrom('CallStat7d')
    .where('calls', '=', 0)
    .where((eb) => eb.or(emptied.map(([dimension, key]) => eb.and([eb('dimension', '=', dimension), eb('key', '=', key)]))))
    .execute()
}

/** Moves the totals' version, which readers of the totals (tool-stats-cache.ts) reload on. */
async function bumpTotalsVersion(typed: Kysely<Tables>): Promise<void> {
  await typed
    .updateTable('CallStatState')
    .set((eb) => ({ version: eb(eb.ref('version'), '+', 1n) }))
    .where('id', '=', 1)
    .execute()
}

/**
 * One step: up to a batch of hours to recompute (newest first), then up to a batch of inserted calls
 * to add, in one snapshot. What they change inside the hours the totals cover moves the totals in the
 * same transaction. Returns what it did (all zero when nothing is left).
 */
async function rollupStep(now: Date): Promise<{ ran: boolean; hours: number; callsInHours: number; calls: number; entries: number; totalsChanged: boolean }> {
  const result = await locked(async (tx) => {
    const typed = sqlIn(tx)
    const oldest = new Date(now.getTime() - RETENTION_HOURS * 3_600_000)
    const latest = new Date(now.getTime() + 24 * 3_600_000)
    // Hours outside the kept window are forgotten; hours in it are claimed in the same snapshot
    // their calls are read in, so a call committed later leaves its own log row for the next run.
    await typed
      .deleteFrom('CallStatDirtyHour')
      .where((eb) => eb.or([eb('hour', '<', oldest), eb('hour', '>', latest)]))
      .execute()
    await moveBulkHoursToRecompute(typed, recomputeMinCalls(), oldest, latest)
    const claimed = await typed
      .deleteFrom('CallStatDirtyHour')
      .where((eb) => eb('hour', 'in', eb.selectFrom('CallStatDirtyHour').select('hour').distinct().orderBy('hour', 'desc').limit(hoursPerBatch())))
      .returning('hour')
      .execute()
    const hours = [...new Set(claimed.map((r) => r.hour.toISOString()))]
    // Totals to be summed afresh (no end recorded) take nothing from the steps.
    const state = await typed.selectFrom('CallStatState').select(['totalsWindowStart', 'totalsWindowEnd']).where('id', '=', 1).executeTakeFirst()
    const totalsRange: TotalsRangeParam =
      state?.totalsWindowEnd && state.totalsWindowStart ? { first: state.totalsWindowStart, last: state.totalsWindowEnd } : { first: null, last: null }
    // The grouping holds a few thousand groups per hour: keep it in memory (SET LOCAL).
    await sql`SELECT set_config('work_mem', '64MB', true)`.execute(typed)
    let totals = 0
    let callsInHours = 0
    const emptied: Array<[string, string]> = []
    if (hours.length > 0) {
      await typed
        .deleteFrom('CallStatToolHourly')
        .where((eb) => eb('hour', '=', eb.fn.any(sql<Date[]>`${hours}::timestamptz[]`)))
        .execute()
      const [gone] = (await deletePersonHoursSql(hours, totalsRange).execute(typed)).rows
      totals += gone.totals
      emptied.push(...gone.emptied)
      const [recomputed] = (await recomputeHoursSql(hours, totalsRange).execute(typed)).rows
      totals += recomputed.totals
      callsInHours += recomputed.calls
      emptied.push(...recomputed.emptied)
    }
    const [added] = (await addInsertedSql({ calls: callsPerBatch(), oldest, latest, recomputed: hours, range: totalsRange }).execute(typed)).rows
    totals += added.totals
    emptied.push(...added.emptied)
    await dropEmptied(typed, emptied)
    if (totals > 0) await bumpTotalsVersion(typed)
    return { hours: hours.length, callsInHours, calls: added.calls, entries: added.entries, totalsChanged: totals > 0 }
  }, Prisma.TransactionIsolationLevel.RepeatableRead)
  return result.ran ? { ran: true, ...result.value } : { ran: false, hours: 0, callsInHours: 0, calls: 0, entries: 0, totalsChanged: false }
}

/**
 * Marks every kept hour from `from` (default: the oldest kept) for a full recompute on the next run,
 * and the 7-day totals to be summed afresh: the repair path, for rollups that disagree with the calls
 * (a restore, a manual edit with triggers off). Returns how many hours it marked.
 */
export async function markHoursForRecompute(now = new Date(), from?: Date): Promise<number> {
  const oldest = new Date(Math.max(now.getTime() - RETENTION_HOURS * 3_600_000, from?.getTime() ?? 0))
  const hour = (at: Date) => sql<Date>`date_trunc('hour', ${at}::timestamptz, 'UTC')`
  const { numInsertedOrUpdatedRows } = await db
    .insertInto('CallStatDirtyHour')
    .columns(['hour'])
    .expression(db.selectNoFrom(sql<Date>`generate_series(${hour(oldest)}, ${hour(new Date(now.getTime() + 24 * 3_600_000))}, interval '1 hour')`.as('hour')))
    .executeTakeFirstOrThrow()
  await db.updateTable('CallStatState').set({ totalsWindowEnd: null }).where('id', '=', 1).execute()
  return Number(numInsertedOrUpdatedRows ?? 0)
}

/**
 * Per dimension and key, the calls, failures and refusals of the hourly rows of `range`, times
 * `sign`: what both ways of keeping the totals read (summed afresh, or moved by the hours that
 * entered and left).
 */
const hourlySums = (typed: Kysely<Tables>, range: HourRange, sign: 1 | -1) =>
  typed
    .selectFrom('CallStatHourly')
    .select((eb) => [
      'dimension',
      'key',
      eb(eb.fn.sum<bigint>('calls'), '*', sql.lit(BigInt(sign))).as('calls'),
      eb(eb.fn.sum<bigint>('failures'), '*', sql.lit(BigInt(sign))).as('failures'),
      eb(eb.fn.sum<bigint>('refused'), '*', sql.lit(BigInt(sign))).as('refused'),
    ])
    .where('hour', '>=', range.first)
    .where('hour', '<=', range.last)
    .groupBy(['dimension', 'key'])
    // The per-person totals, from the per-person hourly rows (person-stat-key-sql.ts).
    .unionAll(
      typed
        .selectFrom('CallStatPersonHourly')
        .select((eb) => [
          sql.lit(PERSON_TOTALS_DIMENSION).as('dimension'),
          personTotalsKeySql(eb.ref('issuer'), eb.ref('subject'), eb.ref('agentId')).as('key'),
          eb(eb.fn.sum<bigint>('calls'), '*', sql.lit(BigInt(sign))).as('calls'),
          eb(eb.fn.sum<bigint>('failures'), '*', sql.lit(BigInt(sign))).as('failures'),
          eb(eb.fn.sum<bigint>('refused'), '*', sql.lit(BigInt(sign))).as('refused'),
        ])
        .where('hour', '>=', range.first)
        .where('hour', '<=', range.last)
        .groupBy(['issuer', 'subject', 'agentId']),
    )

/** The totals summed afresh over `range`: every hourly row of the window, once (a first run, a repair, a long pause). */
async function sumTotals(typed: Kysely<Tables>, range: HourRange): Promise<boolean> {
  const one = sql.lit(1).as('one')
  const { changed } = await typed
    .with('fresh', (q) =>
      q
        .selectFrom(hourlySums(typed, range, 1).as('s'))
        .select((eb) => [
          'dimension',
          'key',
          eb.cast<number>('calls', 'integer').as('calls'),
          eb.cast<number>('failures', 'integer').as('failures'),
          eb.cast<number>('refused', 'integer').as('refused'),
        ]),
    )
    .with('upserted', (q) =>
      q
        .insertInto('CallStat7d')
        .columns(['dimension', 'key', 'calls', 'failures', 'refused'])
        .expression(q.selectFrom('fresh').selectAll())
        .onConflict((oc) =>
          oc
            .columns(['dimension', 'key'])
            .doUpdateSet((eb) => ({ calls: eb.ref('excluded.calls'), failures: eb.ref('excluded.failures'), refused: eb.ref('excluded.refused') }))
            .where(
              (eb) =>
                sql<boolean>`(${eb.ref('CallStat7d.calls')}, ${eb.ref('CallStat7d.failures')}, ${eb.ref('CallStat7d.refused')}) IS DISTINCT FROM (${eb.ref('excluded.calls')}, ${eb.ref('excluded.failures')}, ${eb.ref('excluded.refused')})`,
            ),
        )
        .returning(one),
    )
    .with('dropped', (q) =>
      q
        .deleteFrom('CallStat7d')
        .where((eb) =>
          eb.not(
            eb.exists(eb.selectFrom('fresh as f').select(one).whereRef('f.dimension', '=', 'CallStat7d.dimension').whereRef('f.key', '=', 'CallStat7d.key')),
          ),
        )
        .returning(one),
    )
    .selectNoFrom((eb) =>
      eb(eb.selectFrom('upserted').select(eb.fn.countAll<bigint>().as('n')), '+', eb.selectFrom('dropped').select(eb.fn.countAll<bigint>().as('n'))).as(
        'changed',
      ),
    )
    .executeTakeFirstOrThrow()
  return Number(changed) > 0
}

/**
 * The totals moved from one range of hours to another: the hourly rows of the hours that left are
 * taken away and those of the hours that entered added, so a minute reads an hour's rows (a day's at
 * UTC midnight), not the window's.
 */
async function moveTotals(typed: Kysely<Tables>, moves: RangeMove[]): Promise<boolean> {
  if (moves.length === 0) return false
  const signed = moves.map((move) => hourlySums(typed, move, move.sign)).reduce((all, next) => all.unionAll(next))
  const rows = await typed
    .with('moved', () => signed)
    .with('delta', (q) =>
      q
        .selectFrom('moved')
        .select((eb) => [
          'dimension',
          'key',
          eb.cast<number>(eb.fn.sum('calls'), 'integer').as('calls'),
          eb.cast<number>(eb.fn.sum('failures'), 'integer').as('failures'),
          eb.cast<number>(eb.fn.sum('refused'), 'integer').as('refused'),
        ])
        .groupBy(['dimension', 'key'])
        .having((eb) => eb.or([eb(eb.fn.sum('calls'), '<>', 0), eb(eb.fn.sum('failures'), '<>', 0), eb(eb.fn.sum('refused'), '<>', 0)])),
    )
    .insertInto('CallStat7d')
    .columns(['dimension', 'key', 'calls', 'failures', 'refused'])
    .expression((eb) => eb.selectFrom('delta').selectAll())
    .onConflict((oc) =>
      oc.columns(['dimension', 'key']).doUpdateSet((eb) => ({
        calls: eb(eb.ref('CallStat7d.calls'), '+', eb.ref('excluded.calls')),
        failures: eb(eb.ref('CallStat7d.failures'), '+', eb.ref('excluded.failures')),
        refused: eb(eb.ref('CallStat7d.refused'), '+', eb.ref('excluded.refused')),
      })),
    )
    .returning(['CallStat7d.dimension', 'CallStat7d.key', 'CallStat7d.calls'])
    .execute()
  await dropEmptied(
    typed,
    rows.filter((r) => r.calls === 0).map((r) => [r.dimension, r.key]),
  )
  return rows.length > 0
}

/** 7-day totals, Tool status fields and retention; returns what changed. */
async function refreshTotals(now: Date, changes: number) {
  return locked(async (tx) => {
    const typed = sqlIn(tx)
    const range = totalsRangeAt(now)
    const state = await typed.selectFrom('CallStatState').select(['totalsWindowStart', 'totalsWindowEnd']).where('id', '=', 1).executeTakeFirst()
    const held = state?.totalsWindowStart && state.totalsWindowEnd ? { first: state.totalsWindowStart, last: state.totalsWindowEnd } : null
    const moves = held && rangeMoves(held, range)
    // Nothing new and the range has not moved: the totals stand (the common idle minute).
    if (changes === 0 && moves?.length === 0) return { totalsChanged: false, toolsUpdated: 0, rollupRowsDropped: 0 }
    const totalsChanged = moves ? await moveTotals(typed, moves) : await sumTotals(typed, range)
    await typed
      .updateTable('CallStatState')
      .set((eb) => ({
        version: sql<bigint>`${eb.ref('version')} + ${totalsChanged ? 1 : 0}`,
        computedAt: now,
        totalsWindowStart: range.first,
        totalsWindowEnd: range.last,
      }))
      .where('id', '=', 1)
      .execute()
    const keptFrom = new Date(now.getTime() - RETENTION_HOURS * 3_600_000)
    let rollupRowsDropped = 0
    for (const table of ['CallStatHourly', 'CallStatToolHourly', 'CallStatPersonHourly'] as const) {
      const { numDeletedRows } = await typed.deleteFrom(table).where('hour', '<', keptFrom).executeTakeFirstOrThrow()
      rollupRowsDropped += Number(numDeletedRows)
    }

    // Each Tool reads the figures of its own key (namespace and name), not of every tool of its id.
    // These writes are not registry changes (see the migration): cached effective tool sets take
    // their numbers from the stats cache.
    await sql`SELECT set_config('toolroom.stats_write', 'on', true)`.execute(typed)
    const figures = typed
      .selectFrom('Tool as t2')
      .leftJoin('CallStat7d as s', (join) =>
        join.on('s.dimension', '=', 'tool').on((eb) => eb('s.key', '=', toolResourceStatKeySql(eb.ref('t2.namespace'), eb.ref('t2.name')))),
      )
      .select((eb) => [
        't2.id',
        eb.fn.coalesce('s.calls', sql.lit(0)).as('calls'),
        sql<number | null>`CASE WHEN ${eb.ref('s.calls')} > 0 THEN ${eb.ref('s.failures')}::float8 / ${eb.ref('s.calls')} END`.as('rate'),
      ])
    const { numUpdatedRows } = await typed
      .updateTable('Tool as t')
      .from(figures.as('s'))
      .set((eb) => ({ totalCalls7d: eb.ref('s.calls'), failureRate7d: eb.ref('s.rate') }))
      .whereRef('t.id', '=', 's.id')
      .where((eb) => sql<boolean>`(${eb.ref('t.totalCalls7d')}, ${eb.ref('t.failureRate7d')}) IS DISTINCT FROM (${eb.ref('s.calls')}, ${eb.ref('s.rate')})`)
      .executeTakeFirstOrThrow()
    const toolsUpdated = Number(numUpdatedRows)
    await sql`SELECT set_config('toolroom.stats_write', 'off', true)`.execute(typed)
    return { totalsChanged, toolsUpdated, rollupRowsDropped }
  })
}

/** One full rollup: every logged hour and inserted call, then the totals. Safe to run at any time, from any process. */
export async function rollupCallStats(now: () => Date = () => new Date()): Promise<RollupResult> {
  const started = performance.now()
  let hoursRecomputed = 0
  let callsAdded = 0
  let callsInRecomputedHours = 0
  let stepsChangedTotals = false
  const notRun = () => ({
    ran: false,
    hoursRecomputed,
    callsAdded,
    callsInRecomputedHours,
    totalsChanged: false,
    toolsUpdated: 0,
    rollupRowsDropped: 0,
    ms: Math.round(performance.now() - started),
  })
  for (;;) {
    const step = await rollupStep(now())
    if (!step.ran) return notRun()
    if (step.hours === 0 && step.entries === 0) break
    hoursRecomputed += step.hours
    callsAdded += step.calls
    callsInRecomputedHours += step.callsInHours
    stepsChangedTotals ||= step.totalsChanged
  }
  const totals = await refreshTotals(now(), hoursRecomputed + callsAdded)
  if (!totals.ran) return notRun()
  return {
    ran: true,
    hoursRecomputed,
    callsAdded,
    callsInRecomputedHours,
    ...totals.value,
    totalsChanged: stepsChangedTotals || totals.value.totalsChanged,
    ms: Math.round(performance.now() - started),
  }
}
