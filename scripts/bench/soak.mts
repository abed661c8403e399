// npm run bench:soak — a compressed month of the call log (docs/design/call-log.md): the real lean
// gateway serves a steady load while, day by simulated day, the call log is filled with a day of calls
// (BENCH_SOAK_CALLS_PER_DAY, written with every index and the statistics' triggers, as the gateway
// writes them), the worker's upkeep (lib/call-log/maintain-call-partitions.ts) creates the days ahead
// and drops those past the retention while the gateway is under load, and the rollup counts the day.
// Each simulated day ends a day before the next, the last one yesterday, so the gateway's own calls
// land in today's partition as they do in production. Reports per day: the gateway's calls/s, p99
// and slowest call during the upkeep, the upkeep's time, the call log's size on disk (table and
// indexes) and the gateway's RSS; at the end: 7-day statistics reads at the first and the last day,
// and a rollup after a minute of late calls. Record the figures in BENCHMARKS.md with the machine.
//   BENCH_SOAK_DAYS (default 30), BENCH_SOAK_RETENTION_DAYS (default 7, the least allowed: days are
//   dropped from the 9th on), BENCH_SOAK_CALLS_PER_DAY (default 200,000), BENCH_SOAK_LOAD_SECONDS (5)
//   and BENCH_SOAK_CONNECTIONS (10) for the gateway load each day, BENCH_SOAK_LATE_CALLS (60,000:
//   a minute at 1,000 calls/s). TOOLROOM_BENCH_PG_PORT for the embedded PostgreSQL.
// Day 1 and the last day are compared on longer runs of their own, after the day's fill and rollup
// with nothing else running (a day's 5 s under the upkeep moves by ±25 % from one day to the next):
// BENCH_SOAK_COMPARE_ROUNDS (default 3) of BENCH_SOAK_COMPARE_SECONDS (default 20) each, medians.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import http from 'node:http'
import pg from 'pg'
import { benchDatabase } from '../fresh-database.mjs'
import { fillCallsSql } from './call-fill.mjs'
import { stopChild } from '../stop-child.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'
import { BENCH_SECRET_KEY, runNode } from './bench-server.mjs'

const DAYS = Number(process.env.BENCH_SOAK_DAYS ?? 30)
const RETENTION = Number(process.env.BENCH_SOAK_RETENTION_DAYS ?? 7)
const CALLS_PER_DAY = Number(process.env.BENCH_SOAK_CALLS_PER_DAY ?? 200_000)
const LOAD_SECONDS = Number(process.env.BENCH_SOAK_LOAD_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 10)
const LATE_CALLS = Number(process.env.BENCH_SOAK_LATE_CALLS ?? 60_000)
const COMPARE_ROUNDS = Number(process.env.BENCH_SOAK_COMPARE_ROUNDS ?? 3)
const COMPARE_SECONDS = Number(process.env.BENCH_SOAK_COMPARE_SECONDS ?? 20)
const DAY_MS = 86_400_000
const log = (...a: unknown[]) => console.log('[soak]', ...a)
const children: ChildProcess[] = []

/** Starts a Node process and resolves with the first match of `ready` in its output. */
function start(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
    children.push(child)
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${out}`)), 120_000)
    child.stdout!.on('data', (d) => {
      out += d
      const match = ready.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve({ child, match })
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`)))
  })
}

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return line ? Number(line[1]) / 1024 : NaN
}

const callBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bench.lookup', arguments: { key: 'k1' } } })

/**
 * `BENCH_SOAK_CONNECTIONS` keep-alive connections each calling one at a time for `loadSeconds`
 * (`BENCH_SOAK_LOAD_SECONDS`), every call timed to the microsecond: calls/s, p99 and the slowest.
 */
async function gatewayLoad(url: string, token: string, loadSeconds = LOAD_SECONDS) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'content-length': String(Buffer.byteLength(callBody)),
    authorization: `Bearer ${token}`,
  }
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint()
      const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`the gateway answered ${res.statusCode}`)),
        )
      })
      req.on('error', reject)
      req.end(callBody)
    })
  const times: number[] = []
  const startedAt = performance.now()
  const endAt = startedAt + loadSeconds * 1000
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < endAt) times.push(await once())
    }),
  )
  const seconds = (performance.now() - startedAt) / 1000
  agent.destroy()
  times.sort((a, b) => a - b)
  return { rps: times.length / seconds, p99: Math.round(times[Math.floor(times.length * 0.99)]), max: Math.round(times[times.length - 1]) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The gateway alone, `BENCH_SOAK_COMPARE_ROUNDS` runs of `BENCH_SOAK_COMPARE_SECONDS`: the medians of calls/s and p99. */
async function steadyLoad(url: string, token: string) {
  const rounds = []
  for (let i = 0; i < COMPARE_ROUNDS; i++) rounds.push(await gatewayLoad(url, token, COMPARE_SECONDS))
  return { rps: median(rounds.map((r) => r.rps)), p99: median(rounds.map((r) => r.p99)), rounds }
}

const db = await benchDatabase('toolroom_bench_soak')
try {
  process.env.DATABASE_URL = db.url
  process.env.TOOLROOM_SECRET_KEY ??= BENCH_SECRET_KEY
  const { maintainCallPartitions } = await import('@/lib/call-log/maintain-call-partitions')
  const { rollupCallStats } = await import('@/lib/stats/rollup-call-stats')
  const { readCallStats } = await import('@/lib/stats/read-call-stats')
  /** The rollup run until it has nothing left: what it counted (calls added, and every call of the hours it recomputed). */
  const rollUpAll = async () => {
    let counted = 0
    for (let r = await rollupCallStats(); r.ran && (r.callsAdded > 0 || r.hoursRecomputed > 0); r = await rollupCallStats())
      counted += r.callsAdded + r.callsInRecomputedHours
    return counted
  }

  const env = { DATABASE_URL: db.url, TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY, NODE_ENV: 'production' }
  const upstream = (await start(['scripts/bench/gateway-upstream.mjs'], { UPSTREAM_PORT: '0' }, /upstream (\S+)/)).match[1]
  const seeded = await runNode([...TSX_NODE_ARGS, 'scripts/bench/gateway-seed.mts'], { ...env, UPSTREAM_URL: upstream }, { capture: true })
  const { token } = JSON.parse(seeded) as { token: string }
  const gateway = await start([...TSX_NODE_ARGS, 'scripts/gateway.ts'], { ...env, GATEWAY_PORT: '0', HOST: '127.0.0.1' }, /listening on (http:\/\/[^\s"]+)/)
  const gatewayUrl = gateway.match[1]

  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  const logBytes = async () =>
    Number(
      (
        await client.query<{ bytes: string }>(
          `SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)::bigint AS bytes FROM pg_inherits i WHERE i.inhparent = 'public."ToolCall"'::regclass`,
        )
      ).rows[0].bytes,
    )
  const rows = async () => Number((await client.query<{ n: string }>('SELECT count(*)::bigint AS n FROM "ToolCall"')).rows[0].n)
  const statsReads = async () => {
    const times: number[] = []
    for (let i = 0; i < 20; i++) {
      const t = performance.now()
      await readCallStats('all', '')
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    return { p50: times[10], max: times[19] }
  }

  log(
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`,
  )
  log(
    `${DAYS} days of ${CALLS_PER_DAY.toLocaleString('en')} calls, retention ${RETENTION} days, gateway load ${CONNECTIONS} connections × ${LOAD_SECONDS} s a day`,
  )
  await gatewayLoad(gatewayUrl, token) // warm-up
  const firstReads = await statsReads()

  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
  const days: Array<Record<string, number | string>> = []
  const steady: Array<Awaited<ReturnType<typeof steadyLoad>>> = []
  let written = 0
  console.log('\nday | simulated  | gateway calls/s | p99 ms | slowest ms | upkeep s | dropped | fill s | rollup s | rolled up | log MB | gateway RSS MB')
  for (let d = 1; d <= DAYS; d++) {
    const day = new Date(today - (DAYS - d + 1) * DAY_MS)
    // The upkeep of the new day runs while the gateway is under load: a drop must not stall it.
    const upkeepStarted = performance.now()
    const [load, upkeep] = await Promise.all([
      gatewayLoad(gatewayUrl, token),
      maintainCallPartitions({ now: new Date(day.getTime() + DAY_MS / 2), retentionDays: RETENTION, databaseUrl: db.url }).then((u) => ({
        ...u,
        seconds: (performance.now() - upkeepStarted) / 1000,
      })),
    ])
    let t = performance.now()
    await client.query(fillCallsSql(day, CALLS_PER_DAY, DAY_MS))
    const fillSeconds = (performance.now() - t) / 1000
    written += CALLS_PER_DAY
    t = performance.now()
    // Days older than the kept hourly rollups (the window and a day) are not counted: their rollup adds
    // nothing. A day's hours get their calls at once, so the rollup recomputes them rather than adding
    // the calls one by one: what it counted is both.
    const added = await rollUpAll()
    const rollupSeconds = (performance.now() - t) / 1000
    const row = {
      day: d,
      simulated: day.toISOString().slice(0, 10),
      rps: Math.round(load.rps),
      p99: load.p99,
      slowest: load.max,
      upkeep: Number(upkeep.seconds.toFixed(2)),
      dropped: upkeep.dropped.length,
      fill: Number(fillSeconds.toFixed(1)),
      rollup: Number(rollupSeconds.toFixed(1)),
      added,
      logMb: Math.round((await logBytes()) / 2 ** 20),
      rss: Math.round(rssMb(gateway.child.pid!)),
    }
    days.push(row)
    if (d === 1 || d === DAYS) steady.push(await steadyLoad(gatewayUrl, token))
    console.log(
      `${String(row.day).padStart(3)} | ${row.simulated} | ${String(row.rps).padStart(15)} | ${String(row.p99).padStart(6)} | ${String(row.slowest).padStart(10)} | ${String(row.upkeep).padStart(8)} | ${String(row.dropped).padStart(7)} | ${String(row.fill).padStart(6)} | ${String(row.rollup).padStart(8)} | ${String(row.added).padStart(9)} | ${String(row.logMb).padStart(6)} | ${String(row.rss).padStart(14)}`,
    )
  }
  const lastReads = await statsReads()

  // The gateway's calls of the last comparison are counted first, untimed: the late rollup is timed
  // on the late calls alone.
  await rollUpAll()
  // A minute of late calls, spread over the statistics window, then the rollup that counts them.
  await client.query(fillCallsSql(new Date(Date.now() - 7 * DAY_MS + 3_600_000), LATE_CALLS, 7 * DAY_MS - 2 * 3_600_000))
  const t = performance.now()
  const late = await rollUpAll()
  const lateSeconds = (performance.now() - t) / 1000

  const first = days[0]
  const last = days[days.length - 1]
  log(`calls written in all: ${(written + LATE_CALLS).toLocaleString('en')}; held at the end: ${(await rows()).toLocaleString('en')}`)
  log(
    `gateway day 1 → day ${DAYS}: ${first.rps} → ${last.rps} calls/s (${((Number(last.rps) / Number(first.rps) - 1) * 100).toFixed(1)}%), p99 ${first.p99} → ${last.p99} ms`,
  )
  const [steadyFirst, steadyLast] = [steady[0], steady[steady.length - 1]]
  const change = steadyLast.rps / steadyFirst.rps - 1
  const p99Change = steadyLast.p99 / steadyFirst.p99 - 1
  // Beyond 5 % in the good direction is no regression, but not "within" either: said as it is.
  const within = (c: number, higherIsBetter: boolean) =>
    Math.abs(c) <= 0.05 ? 'within 5 %: met' : c > 0 === higherIsBetter ? 'beyond 5 %, better on the last day' : 'within 5 %: missed'
  const rounds = (s: typeof steadyFirst) => s.rounds.map((r) => `${Math.round(r.rps)}/${r.p99}`).join(', ')
  log(
    `gateway alone, ${COMPARE_ROUNDS} × ${COMPARE_SECONDS} s after the day's rollup, day 1 → day ${DAYS}: ${Math.round(steadyFirst.rps)} → ${Math.round(steadyLast.rps)} calls/s (${(change * 100).toFixed(1)}%, ${within(change, true)}), p99 ${steadyFirst.p99} → ${steadyLast.p99} ms (${(p99Change * 100).toFixed(1)}%, ${within(p99Change, false)}); calls/s / p99 ms per run: day 1 ${rounds(steadyFirst)}; day ${DAYS} ${rounds(steadyLast)}`,
  )
  log(
    `slowest upkeep ${Math.max(...days.map((r) => Number(r.upkeep)))} s; slowest gateway call during an upkeep that dropped a day: ${Math.max(0, ...days.filter((r) => Number(r.dropped) > 0).map((r) => Number(r.slowest)))} ms`,
  )
  log(`call log on disk: largest ${Math.max(...days.map((r) => Number(r.logMb)))} MB, at the end ${last.logMb} MB (retention ${RETENTION} days)`)
  log(
    `7-day statistics read (all calls): p50 ${firstReads.p50.toFixed(1)} ms on day 0, ${lastReads.p50.toFixed(1)} ms after ${written.toLocaleString('en')} calls`,
  )
  log(`rollup after ${LATE_CALLS.toLocaleString('en')} late calls over the window: ${lateSeconds.toFixed(2)} s (${late.toLocaleString('en')} added)`)
  log(`gateway RSS: day 1 ${first.rss} MB, day ${DAYS} ${last.rss} MB, largest ${Math.max(...days.map((r) => Number(r.rss)))} MB`)
  await client.end()
} finally {
  await Promise.all(children.map((c) => stopChild(c)))
  await db.stop()
}
