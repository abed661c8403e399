// npm run bench:late-rollup — the soak's last figure on its own, quick and repeatable (issue 28): the
// call log gets the days the statistics keep (BENCH_LATE_DAYS of BENCH_LATE_CALLS_PER_DAY calls, the
// soak's fill, the last day yesterday) and is rolled up; then, BENCH_LATE_ROUNDS times, a minute of
// late calls (BENCH_SOAK_LATE_CALLS, 60,000 by default) spread over the statistics window, as the
// soak writes them, and the rollup that counts them, run by scripts/stats-rollup.ts in a process of
// its own. With BENCH_LATE_AGAINST=<another checkout> each round runs that checkout's rollup too, on
// the same database, alternating (A/B in one run window; the other checkout must read the same
// schema). Reports per run: the rollup's own time, PostgreSQL's CPU seconds during it (from /proc),
// the calls it added and the load average. BENCH_LATE_EXPLAIN=1 instead runs one late rollup in this
// process with auto_explain (ANALYZE, BUFFERS) and prints the plans of its statements.
// BENCH_LATE_FILLFACTOR=<n> first rewrites the hourly rollup tables at that fillfactor (the
// migration's is 70; 100 is PostgreSQL's default), to see what room for HOT updates gives.
// BENCH_LATE_REUSE=1 keeps the database of the last run when it has its calls (the fill and first
// rollup take minutes; the late calls of earlier runs stay in it, which each later run updates the
// same rows as). BENCH_LATE_CHECKPOINT=1 runs a CHECKPOINT before each rollup. TOOLROOM_BENCH_PG_PORT
// for the embedded PostgreSQL.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { benchDatabase, migrateDatabase } from '../fresh-database.mjs'
import { startEmbeddedPostgres } from '../embedded-postgres.mjs'
import { fillCallsSql } from './call-fill.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'
import { spawn } from 'node:child_process'

const DAYS = Number(process.env.BENCH_LATE_DAYS ?? 8)
const CALLS_PER_DAY = Number(process.env.BENCH_LATE_CALLS_PER_DAY ?? 200_000)
const LATE_CALLS = Number(process.env.BENCH_SOAK_LATE_CALLS ?? 60_000)
const ROUNDS = Number(process.env.BENCH_LATE_ROUNDS ?? 3)
const AGAINST = process.env.BENCH_LATE_AGAINST ? path.resolve(process.env.BENCH_LATE_AGAINST) : null
const EXPLAIN = process.env.BENCH_LATE_EXPLAIN === '1'
// A checkpoint right before each rollup: every page the rollup is the first to change then writes a
// full-page image to the WAL, the worst case, the same for every run (without it, where the server's
// own checkpoints fall moves a run's time by a second or more).
const CHECKPOINT_FIRST = process.env.BENCH_LATE_CHECKPOINT === '1'
const DAY_MS = 86_400_000
const log = (...a: unknown[]) => console.log('[late-rollup]', ...a)

/**
 * CPU seconds of the benchmark's embedded PostgreSQL, or NaN with DATABASE_URL: the postmaster, its
 * live backends and those that ended (a rollup's backend ends with its process: the postmaster's
 * children's time holds it).
 */
function postgresCpuSeconds(): number {
  if (process.env.DATABASE_URL) return NaN
  const ticks = (pid: string, withEnded = false) => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    const own = Number(fields[11]) + Number(fields[12])
    return { parent: fields[1], cpu: (withEnded ? own + Number(fields[13]) + Number(fields[14]) : own) / 100 }
  }
  const postmaster = fs.readFileSync('.data/pg17-bench/postmaster.pid', 'utf8').split('\n')[0]
  let total = ticks(postmaster, true).cpu
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const { parent, cpu } = ticks(entry)
      if (parent === postmaster) total += cpu
    } catch {
      // the process ended while we looked
    }
  }
  return total
}

/** One rollup by `checkout`'s scripts/stats-rollup.ts, in a process of its own; its JSON answer. */
function rollupIn(checkout: string, url: string): Promise<{ ms: number; callsAdded: number; hoursRecomputed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/stats-rollup.ts'], {
      cwd: checkout,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: url },
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`stats-rollup in ${checkout} exited ${code}`)),
    )
  })
}

const NAME = 'toolroom_bench_late_rollup'
/** The last run's database when asked for and it holds its calls, else null. */
async function lastDatabase() {
  if (process.env.BENCH_LATE_REUSE !== '1' || process.env.DATABASE_URL) return null
  const server = await startEmbeddedPostgres({
    dataDir: path.resolve('.data/pg17-bench'),
    port: Number(process.env.TOOLROOM_BENCH_PG_PORT ?? 55650),
    database: NAME,
  })
  const probe = new pg.Client({ connectionString: server.url })
  await probe.connect()
  const held = await probe
    .query(`SELECT to_regclass('"ToolCall"') IS NOT NULL AND EXISTS (SELECT 1 FROM "CallStatHourly") AS held`)
    .catch(() => ({ rows: [{ held: false }] }))
  await probe.end()
  if (held.rows[0].held) {
    await migrateDatabase(server.url)
    return { url: server.url, stop: server.stop }
  }
  await server.stop()
  return null
}

const reused = await lastDatabase()
const db = reused ?? (await benchDatabase(NAME))
const client = new pg.Client({ connectionString: db.url })
try {
  await client.connect()
  log(
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
  let t = performance.now()
  if (!reused) {
    for (let d = 1; d <= DAYS; d++) await client.query(fillCallsSql(new Date(today - (DAYS - d + 1) * DAY_MS), CALLS_PER_DAY, DAY_MS))
    const filled = (performance.now() - t) / 1000
    t = performance.now()
    const first = await rollupIn(process.cwd(), db.url)
    log(
      `${DAYS} days × ${CALLS_PER_DAY.toLocaleString('en')} calls written in ${filled.toFixed(1)} s, rolled up in ${((performance.now() - t) / 1000).toFixed(1)} s (${first.hoursRecomputed} hours)`,
    )
  } else log("the last run's database, kept")

  const lateCalls = () => client.query(fillCallsSql(new Date(Date.now() - 7 * DAY_MS + 3_600_000), LATE_CALLS, 7 * DAY_MS - 2 * 3_600_000))
  // Each run starts from the same state of the rollup tables: no dead rows left by the run before.
  const settle = () => client.query('VACUUM (ANALYZE) "CallStatHourly", "CallStatToolHourly", "CallStatPersonHourly", "CallStat7d", "CallStatInsertLog"')

  if (process.env.BENCH_LATE_FILLFACTOR) {
    const fillfactor = Number(process.env.BENCH_LATE_FILLFACTOR)
    if (!Number.isInteger(fillfactor) || fillfactor < 10 || fillfactor > 100) throw new Error('BENCH_LATE_FILLFACTOR: a whole number from 10 to 100')
    for (const table of ['CallStatHourly', 'CallStatToolHourly', 'CallStatPersonHourly']) {
      await client.query(`ALTER TABLE "${table}" SET (fillfactor = ${fillfactor})`)
      await client.query(`VACUUM FULL "${table}"`)
    }
    log(`hourly rollup tables rewritten at fillfactor ${fillfactor}`)
  }

  if (EXPLAIN) {
    await lateCalls()
    await settle()
    const options = encodeURIComponent(
      '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=100 -c auto_explain.log_analyze=on -c auto_explain.log_buffers=on -c auto_explain.log_nested_statements=on -c client_min_messages=log',
    )
    process.env.DATABASE_URL = `${db.url}?options=${options}`
    // auto_explain's plans come to the client as notices: print those of every connection the rollup opens.
    const connect = pg.Client.prototype.connect
    pg.Client.prototype.connect = function (this: pg.Client, ...args: Parameters<typeof connect>) {
      this.on('notice', (notice) => console.log(notice.message))
      return connect.apply(this, args)
    } as typeof connect
    // The pool's idle connections are ended with the server at the end: only other errors are news.
    process.on('uncaughtException', (error: Error & { code?: string }) => {
      if (error.code === '57P01') return
      console.error(error)
      process.exit(1)
    })
    const { rollupCallStats } = await import('@/lib/stats/rollup-call-stats')
    log(JSON.stringify(await rollupCallStats()))
    const { prisma } = await import('@/lib/db')
    await prisma.$disconnect()
  } else {
    const checkouts = AGAINST ? [AGAINST, process.cwd()] : [process.cwd()]
    // Of the rollup tables' row updates, how many were HOT (the new version on the same page, no index written).
    const updates = async () =>
      (
        await client.query<{ hot: string; all: string }>(
          `SELECT sum(n_tup_hot_upd)::bigint AS hot, sum(n_tup_upd)::bigint AS all FROM pg_stat_user_tables
           WHERE relname IN ('CallStatHourly', 'CallStatToolHourly', 'CallStatPersonHourly')`,
        )
      ).rows[0]
    // WAL written during the rollup: its row versions, and a full-page image of each page it is the
    // first to change since the last checkpoint.
    const walBytes = async () => BigInt((await client.query<{ lsn: string }>(`SELECT (pg_current_wal_insert_lsn() - '0/0')::text AS lsn`)).rows[0].lsn)
    console.log(
      `\nround | checkout | rollup s | postgres CPU s | added | HOT updates | WAL MB | load (1 min)${CHECKPOINT_FIRST ? '   (each after a CHECKPOINT)' : ''}`,
    )
    for (let round = 1; round <= ROUNDS; round++) {
      for (const checkout of round % 2 === 0 ? [...checkouts].reverse() : checkouts) {
        await lateCalls()
        await settle()
        if (CHECKPOINT_FIRST) await client.query('CHECKPOINT')
        const cpu = postgresCpuSeconds()
        const was = await updates()
        const walBefore = await walBytes()
        const r = await rollupIn(checkout, db.url)
        const cpuSeconds = postgresCpuSeconds() - cpu
        const wal = Number((await walBytes()) - walBefore) / 1e6
        const now = await updates()
        const hot = `${Number(now.hot) - Number(was.hot)}/${Number(now.all) - Number(was.all)}`
        console.log(
          `${String(round).padStart(5)} | ${path.basename(checkout)} | ${(r.ms / 1000).toFixed(2).padStart(8)} | ${cpuSeconds.toFixed(2).padStart(14)} | ${String(r.callsAdded).padStart(6)} | ${hot.padStart(11)} | ${wal.toFixed(1).padStart(6)} | ${os.loadavg()[0].toFixed(1)}`,
        )
      }
    }
  }
} finally {
  await client.end()
  await db.stop()
}
