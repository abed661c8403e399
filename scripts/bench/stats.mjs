// npm run bench:stats — 10 million ToolCall rows over the last 7 days (the bench fleet's agents
// calling its tools), the statistics rollup timed over all of them (the first run, which finds each
// hour of the fill arriving in bulk and recomputes it, then a repair of every hour), a minute
// of late calls over many old hours (added, and recomputed hour by hour as before), then the 7-day stats API for a
// tool, an agent and the dashboard at 1 connection against the production build (target p50 ≤ 50 ms
// each), plus top failing tools, a filtered calls page, and the failure view of the tool failing most
// (its breakdowns and its failed calls), and the calls by person. Prints the figures; record them in
// BENCHMARKS.md. BENCH_REUSE=1 measures the reads again on the database the last run left, without
// filling or rolling up (a change on the read path, A/B in the same minutes). BENCH_RECOMPUTE=0 leaves
// out the two runs that recompute hours in full (the repair and the old way of a late minute): at
// 100 M calls each would take about as long as the first run (35 minutes on the bench machine) and
// say nothing about the reads.
import os from 'node:os'
import pg from 'pg'
import { benchDatabase } from '../fresh-database.mjs'
import { AUTH_HEADERS, ensureBenchToken } from './bench-auth.mjs'
import { oneClientLoad } from './one-client-load.mjs'
import { BENCH_SECRET_KEY, runNode as node, startBenchServer } from './bench-server.mjs'
import { generateFleet } from './generate-fleet.mjs'
import { fillCalls } from './stats-fill.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const PORT = process.env.BENCH_PORT ?? '4141'
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const ROWS = Number(process.env.BENCH_CALLS ?? 10_000_000)
const base = `http://127.0.0.1:${PORT}`
const log = (...a) => console.log('[bench]', ...a)
const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1)
const children = []

const rollup = async (url, ...args) => JSON.parse(await node([...TSX_NODE_ARGS, 'scripts/stats-rollup.ts', ...args], { DATABASE_URL: url }, { capture: true }))

const load = (title, path) => oneClientLoad(base, title, [path], DURATION)

const REUSE = Boolean(process.env.BENCH_REUSE)
const RECOMPUTE = process.env.BENCH_RECOMPUTE !== '0'
const db = await benchDatabase('toolroom_bench_stats', { reuse: REUSE })
let server
try {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  // The fleet, the calls and their rollups; the summary lines to print with the reads.
  const fillAndRollUp = async () => {
    let t0 = performance.now()
    await generateFleet(client)
    log(`fleet generated in ${seconds(t0)} s`)
    t0 = performance.now()
    const fill = await fillCalls(client, ROWS, log)
    log(`${ROWS.toLocaleString('en')} calls written in ${seconds(t0)} s (${fill.insertSeconds.toFixed(1)} s rows, ${fill.indexSeconds.toFixed(1)} s indexes)`)
    t0 = performance.now()
    const first = await rollup(db.url)
    log(`first rollup: ${JSON.stringify(first)} (${seconds(t0)} s with process start)`)
    t0 = performance.now()
    const full = RECOMPUTE ? await rollup(db.url, '--repair') : null
    if (full) log(`repair (every hour recomputed): ${JSON.stringify(full)} (${seconds(t0)} s with process start)`)
    const idle = await rollup(db.url)
    // A minute of traffic at the bench's average rate, some of it late (ingested with old startedAt).
    const perMinute = Math.round(ROWS / (7 * 24 * 60))
    await fill.insertRecent(perMinute)
    const minute = await rollup(db.url)
    log(
      `rollup with nothing new: ${idle.ms} ms; after a minute of calls (${minute.callsAdded} added, ${minute.hoursRecomputed} hours recomputed): ${minute.ms} ms`,
    )
    // The late-ingest case: a minute's worth of calls all reported late, spread over six days of old
    // hours. Now: added to their hours. Before (the same again, each touched hour recomputed in full,
    // as every insert was): the log turned into dirty hours.
    await fill.insertLate(perMinute)
    const {
      rows: [{ hours: lateHours }],
    } = await client.query(`SELECT count(DISTINCT hour)::int AS hours FROM "CallStatInsertLog"`)
    const late = await rollup(db.url)
    log(`late minute over ${lateHours} hours, add-only: ${JSON.stringify(late)}`)
    let lateBefore = null
    if (RECOMPUTE) {
      await fill.insertLate(perMinute)
      await client.query(`WITH l AS (DELETE FROM "CallStatInsertLog" RETURNING hour) INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT hour FROM l`)
      lateBefore = await rollup(db.url)
      log(`late minute, each touched hour recomputed (the old way): ${JSON.stringify(lateBefore)}`)
    }
    const notRun = 'not run (BENCH_RECOMPUTE=0)'
    return [
      `Rollup: first run ${(first.ms / 1000).toFixed(1)} s (${first.callsAdded.toLocaleString('en')} calls added, ${first.callsInRecomputedHours.toLocaleString('en')} counted in ${first.hoursRecomputed} hours recomputed: the fill arrives in bulk); repair, every hour recomputed ${full ? `${(full.ms / 1000).toFixed(1)} s (${full.hoursRecomputed} hours)` : notRun}; idle run ${idle.ms} ms; run after a minute of calls ${minute.ms} ms`,
      `Late minute (${late.callsAdded} calls over ${lateHours} old hours): add-only ${late.ms} ms; each touched hour recomputed (before) ${lateBefore ? `${(lateBefore.ms / 1000).toFixed(1)} s (${lateBefore.hoursRecomputed} hours)` : notRun}\n`,
    ]
  }
  const rollupSummary = REUSE ? ['Rollup: not run (BENCH_REUSE: the data and rollups the last run left)\n'] : await fillAndRollUp()
  const {
    rows: [size],
  } = await client.query(`SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = '"ToolCall"'::regclass`)
  const {
    rows: [{ calls }],
  } = await client.query(`SELECT coalesce(sum(calls), 0)::bigint AS calls FROM "CallStat7d" WHERE dimension = 'all'`)
  await client.query('ANALYZE')
  const {
    rows: [busy],
  } = await client.query(`SELECT key FROM "CallStat7d" WHERE dimension = 'tool' ORDER BY calls DESC LIMIT 1`)
  const {
    rows: [agent],
  } = await client.query(`SELECT key FROM "CallStat7d" WHERE dimension = 'agent' ORDER BY calls DESC LIMIT 1`)
  const {
    rows: [failing],
  } = await client.query(`SELECT key FROM "CallStat7d" WHERE dimension = 'tool' ORDER BY failures DESC, key LIMIT 1`)
  const {
    rows: [hourly],
  } = await client.query(`SELECT count(*)::int AS n FROM "CallStatHourly"`)
  const {
    rows: [breakdown],
  } = await client.query(`SELECT count(*)::int AS n FROM "CallStatToolHourly"`)
  await client.end()

  await ensureBenchToken(db.url, BENCH_SECRET_KEY)
  server = (await startBenchServer({ port: PORT, databaseUrl: db.url, log })).child
  children.push(server)
  const busyTool = busy.key.slice(busy.key.lastIndexOf('/') + 1)
  const paths = {
    tool: `/api/v1/stats/tools/${busyTool}?namespace=bench`,
    agent: `/api/v1/stats/agents/${agent.key}`,
    dashboard: '/api/v1/stats/overview',
    failing: '/api/v1/stats/top-failing-tools?limit=10',
    calls: `/api/v1/calls?tool=${busyTool}&outcome=failed&limit=50`,
    toolFailures: `/api/v1/stats/tool-failures?key=${encodeURIComponent(failing.key)}`,
    failedCalls: `/api/v1/calls?toolKey=${encodeURIComponent(failing.key)}&outcome=failed&limit=50`,
    people: '/api/v1/stats/people?limit=20',
  }
  for (const p of Object.values(paths)) {
    const res = await fetch(`${base}${p}`, { headers: AUTH_HEADERS })
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`)
  }
  const results = [
    await load(`GET /api/v1/stats/tools/{id} (busiest Tool)`, paths.tool),
    await load(`GET /api/v1/stats/agents/{id} (busiest agent)`, paths.agent),
    await load('GET /api/v1/stats/overview (dashboard)', paths.dashboard),
    await load('GET /api/v1/stats/top-failing-tools', paths.failing),
    await load('GET /api/v1/calls?tool=…&outcome=failed', paths.calls),
    await load('GET /api/v1/stats/tool-failures?key=… (most failing tool)', paths.toolFailures),
    await load('GET /api/v1/calls?toolKey=…&outcome=failed (most failing tool)', paths.failedCalls),
    await load('GET /api/v1/stats/people (calls by person)', paths.people),
  ]

  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; 1 connection × ${DURATION} s each`,
  )
  console.log(
    `Data: ${Number(calls).toLocaleString('en')} calls in the 7-day totals (ToolCall ${size.size}); ${hourly.n.toLocaleString('en')} hourly rollup rows, ${breakdown.n.toLocaleString('en')} failure-view breakdown rows`,
  )
  for (const line of rollupSummary) console.log(line)
  console.log('| route | req/s | p50 | p99 |\n|---|---|---|---|')
  for (const r of results) console.log(`| ${r.title} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms |`)
  const slow = results.slice(0, 3).filter((r) => r.p50 > 50)
  console.log(slow.length === 0 ? '\ntarget met: p50 ≤ 50 ms for tool, agent and dashboard' : `\ntarget MISSED by: ${slow.map((r) => r.title).join(', ')}`)
} finally {
  for (const c of children) c.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 500))
  await db.stop()
}
