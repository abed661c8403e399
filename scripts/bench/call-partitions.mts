// npm run bench:call-partitions — what it costs to forget a day of calls (docs/design/call-log.md):
// two old days of the call log hold BENCH_CALLS calls each (default 500,000, written with every index,
// as the gateway writes them); one is forgotten the old way, a DELETE of its rows, the other as the
// worker does, DETACH … CONCURRENTLY and DROP (lib/call-log/maintain-call-partitions.ts). Meanwhile a
// writer records one call at a time into today, as the gateway does, and the slowest of its writes
// during each is reported: a drop must not stall the gateway. Prints the figures; record them in
// BENCHMARKS.md with the machine.
import os from 'node:os'
import pg from 'pg'
import { maintainCallPartitions } from '@/lib/call-log/maintain-call-partitions'
import { benchDatabase } from '../fresh-database.mjs'
import { fillCallsSql } from './call-fill.mjs'

const CALLS = Number(process.env.BENCH_CALLS ?? 500_000)
const DAY_MS = 86_400_000
const log = (...a: unknown[]) => console.log('[bench]', ...a)

const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
const deletedDay = new Date(today - 40 * DAY_MS)
const droppedDay = new Date(today - 41 * DAY_MS)

// A call a millisecond from the day's start: the day's rows, however many, in one partition.
const fill = (day: Date) => fillCallsSql(day, CALLS, CALLS)

const oneCall = `
  INSERT INTO "ToolCall" ("agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", provenance, channel, outcome)
  VALUES (gen_random_uuid(), 'bench', 'writer', 'pool0.tool_0', 'pool0', 'grant', 'mcp', 'succeeded')`

/** Times `work` while a writer records one call at a time; returns the seconds and the writer's slowest write. */
async function whileWriting(url: string, work: () => Promise<unknown>) {
  const writer = new pg.Client({ connectionString: url })
  await writer.connect()
  let running = true
  let slowest = 0
  let writes = 0
  const writing = (async () => {
    while (running) {
      const t = performance.now()
      await writer.query(oneCall)
      slowest = Math.max(slowest, performance.now() - t)
      writes++
    }
  })()
  const t0 = performance.now()
  await work()
  const seconds = (performance.now() - t0) / 1000
  running = false
  await writing
  await writer.end()
  return { seconds, slowestWriteMs: slowest, writes }
}

const db = await benchDatabase('toolroom_bench_call_partitions')
try {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  for (const day of [deletedDay, droppedDay]) {
    await client.query('SELECT toolroom_call_partition($1::date)', [day.toISOString().slice(0, 10)])
    const t0 = performance.now()
    await client.query(fill(day))
    log(`${CALLS.toLocaleString('en')} calls written into ${day.toISOString().slice(0, 10)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  await client.query('ANALYZE "ToolCall"')
  const size = async (day: Date) =>
    (
      await client.query<{ size: string }>(
        `SELECT pg_size_pretty(pg_total_relation_size(to_regclass('public."ToolCall_p' || to_char($1::date, 'YYYYMMDD') || '"'))) AS size`,
        [day.toISOString().slice(0, 10)],
      )
    ).rows[0].size
  log(`one day's partition with its indexes: ${await size(deletedDay)}`)

  const deleted = await whileWriting(db.url, () =>
    client.query(`DELETE FROM "ToolCall" WHERE "startedAt" >= $1 AND "startedAt" < $2`, [deletedDay, new Date(deletedDay.getTime() + DAY_MS)]),
  )
  log(
    `DELETE of the day: ${deleted.seconds.toFixed(2)} s; the writer's slowest call record meanwhile ${deleted.slowestWriteMs.toFixed(1)} ms (${deleted.writes} writes); the day's table still takes ${await size(deletedDay)} until VACUUM`,
  )

  // The worker's upkeep with the retention set so that only the 41-day-old day is past it.
  const dropped = await whileWriting(db.url, () => maintainCallPartitions({ now: new Date(), retentionDays: 40, databaseUrl: db.url }))
  log(
    `DETACH CONCURRENTLY + DROP of the day: ${dropped.seconds.toFixed(2)} s; the writer's slowest call record meanwhile ${dropped.slowestWriteMs.toFixed(1)} ms (${dropped.writes} writes)`,
  )
  const gone = (await client.query(`SELECT to_regclass('public."ToolCall_p${droppedDay.toISOString().slice(0, 10).replaceAll('-', '')}"') IS NULL AS gone`))
    .rows[0]
  log(`dropped: ${gone.gone}`)
  log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${os.loadavg()[0].toFixed(1)}`)
  console.log(
    JSON.stringify({
      calls: CALLS,
      deleteSeconds: deleted.seconds,
      deleteSlowestWriteMs: deleted.slowestWriteMs,
      dropSeconds: dropped.seconds,
      dropSlowestWriteMs: dropped.slowestWriteMs,
    }),
  )
  await client.end()
} finally {
  await db.stop()
}
