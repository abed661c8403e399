// npm run bench:discovery — 500 MCP servers and 500 agent listeners on loopback (in a few
// processes), discovered by worker processes through the real queue: time from enqueue until every
// surface is cached. Prints the figures; record them in BENCHMARKS.md.
import { randomUUID } from 'node:crypto'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import pg from 'pg'
import { BENCH_SECRET_KEY } from './bench-server.mjs'
import { benchDatabase } from '../fresh-database.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'
import { benchName, reportRows } from './bench-rows.mjs'

const SERVERS = Number(process.env.BENCH_SERVERS ?? 500)
const PROCESSES = Number(process.env.BENCH_ENDPOINT_PROCESSES ?? 4)
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8)
const log = (...a) => console.log('[bench]', ...a)
const children = []

function start(args, env = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
  children.push(child)
  return child
}
// Where the CPU went (Linux only): user + system time of this benchmark's descendants, by kind.
function descendants() {
  const parentOf = new Map()
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      parentOf.set(Number(pid), Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]))
    } catch {}
  }
  const within = (pid) => {
    for (let p = pid; p > 1; p = parentOf.get(p) ?? 0) if (p === process.pid) return true
    return false
  }
  return [...parentOf.keys()].filter((pid) => pid !== process.pid && within(pid))
}
function cpuByKind() {
  const cpu = new Map()
  for (const pid of descendants()) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.split(') ')[1].split(' ')
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      const kind = args.includes('workers/main')
        ? 'workers'
        : args.includes('endpoints')
          ? 'servers and listeners'
          : stat.includes('(postgres)')
            ? 'PostgreSQL'
            : 'other'
      // utime and stime, in clock ticks of 1/100 s on Linux
      cpu.set(pid, { kind, seconds: (Number(fields[11]) + Number(fields[12])) / 100 })
    } catch {}
  }
  return cpu
}
function cpuSince(start) {
  const totals = {}
  for (const [pid, { kind, seconds }] of cpuByKind()) totals[kind] = (totals[kind] ?? 0) + seconds - (start.get(pid)?.seconds ?? 0)
  return totals
}
const firstLine = (child) =>
  new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} before answering`)))
  })
const run = async (args, env) => JSON.parse(await firstLine(start(args, env)))

const database = await benchDatabase('toolroom_bench_discovery')
const dbUrl = database.url
try {
  const fleets = await Promise.all(
    Array.from({ length: PROCESSES }, () => run(['scripts/bench/discovery-endpoints.mjs', String(Math.ceil(SERVERS / PROCESSES))])),
  )
  const mcpPorts = fleets.flatMap((f) => f.mcp).slice(0, SERVERS)
  const agentPorts = fleets.flatMap((f) => f.agents).slice(0, SERVERS)
  log(`${mcpPorts.length} MCP servers and ${agentPorts.length} agent listeners up in ${PROCESSES} processes`)

  const db = new pg.Client({ connectionString: dbUrl })
  await db.connect()
  const digest = (i) => `sha256:${i.toString(16).padStart(64, '0')}`
  for (let i = 0; i < SERVERS; i++) {
    await db.query(`INSERT INTO "LanguageTool" (id, "apiVersion", namespace, name, spec) VALUES ($1, 'toolroom.dev/v1alpha1', 'bench', $2, $3)`, [
      randomUUID(),
      `mcp-${i}`,
      JSON.stringify({ endpoint: `http://127.0.0.1:${mcpPorts[i]}/mcp`, port: 8080, deploymentMode: 'service', transport: 'streamable-http' }),
    ])
    await db.query(`INSERT INTO "Agent" (id, "apiVersion", namespace, name, spec, connectors) VALUES ($1, 'toolroom.dev/v1alpha1', 'bench', $2, $3, '{}')`, [
      randomUUID(),
      `agent-${i}`,
      JSON.stringify({ image: `registry.local/agent-${i}@${digest(i)}`, endpoint: `http://127.0.0.1:${agentPorts[i]}` }),
    ])
  }

  // Workers up and idle first: the measurement is discovery, not start-up.
  const workerEnv = {
    DATABASE_URL: dbUrl,
    TOOLROOM_WORKER_CONCURRENCY: String(CONCURRENCY),
    TOOLROOM_WORKER_POLL_SECONDS: '0.5',
    TOOLROOM_DB_POOL: '12',
    TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY,
  }
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
  await Promise.all(Array.from({ length: WORKERS }, () => firstLine(start([...profile, ...TSX_NODE_ARGS, 'workers/main.ts'], workerEnv))))
  log(`${WORKERS} workers ready, ${CONCURRENCY} jobs at a time each per queue`)

  const cpuAtStart = cpuByKind()
  const t0 = performance.now()
  const { queued } = await run([...TSX_NODE_ARGS, 'scripts/bench/discovery-enqueue.mts'], workerEnv)
  const tEnqueued = performance.now()
  let done = 0
  let failed = 0
  while (performance.now() - t0 < 180_000) {
    const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM "DiscoveryRun" WHERE status <> 'running' GROUP BY status`)
    done = rows.reduce((a, r) => a + r.n, 0)
    failed = rows.find((r) => r.status === 'failed')?.n ?? 0
    if (done >= queued) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const seconds = (performance.now() - t0) / 1000
  const {
    rows: [cached],
  } = await db.query(
    `SELECT (SELECT count(*)::int FROM "LanguageTool" WHERE phase = 'Ready' AND json_array_length("toolSchemas") = 10) AS servers, (SELECT count(*)::int FROM "Agent" WHERE json_array_length("imageTools") = 10) AS agents`,
  )
  const { rows: timings } = await db.query(
    `SELECT "subjectKind" AS kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM "finishedAt" - "startedAt")) * 1000 AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM "finishedAt" - "startedAt")) * 1000 AS p95 FROM "DiscoveryRun" GROUP BY 1 ORDER BY 1`,
  )
  await db.end()

  console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`)
  console.log(
    `${queued} discoveries queued in ${((tEnqueued - t0) / 1000).toFixed(2)} s; ${done} finished (${failed} failed) in ${seconds.toFixed(1)} s (first target ≤ 15 s: ${seconds <= 15 ? 'met' : 'missed'})`,
  )
  console.log(`cached: ${cached.servers}/${SERVERS} MCP servers with 10 tools, ${cached.agents}/${SERVERS} agents with 10 image tools`)
  for (const t of timings) console.log(`one ${t.kind} run: p50 ${Number(t.p50).toFixed(0)} ms, p95 ${Number(t.p95).toFixed(0)} ms (queue wait not included)`)
  console.log(`${WORKERS} workers × ${CONCURRENCY} jobs at a time per queue; ${PROCESSES} endpoint processes`)
  const cpu = cpuSince(cpuAtStart)
  console.log(
    `CPU seconds from enqueue to all cached: ${Object.entries(cpu)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  )
  console.log(
    `CPU per discovery: ${Object.entries(cpu)
      .map(([k, v]) => `${k} ${((1000 * v) / queued).toFixed(1)} ms`)
      .join(', ')}`,
  )
  reportRows(benchName('bench:discovery', ['BENCH_SERVERS', 'BENCH_ENDPOINT_PROCESSES', 'BENCH_WORKERS', 'BENCH_WORKER_CONCURRENCY']), [
    // Issue 32's row: 500 MCP servers and 500 agents' images discovered, every result cached.
    { name: `${queued} discoveries, queued to all finished`, value: seconds, unit: 's', better: 'lower', target: 5 },
    ...Object.entries(cpu).map(([kind, s]) => ({ name: `${kind} CPU per discovery`, value: (1000 * s) / queued, unit: 'ms', better: 'lower' })),
  ])
  if (done < queued || failed > 0) process.exitCode = 1
} finally {
  for (const c of children) c.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 1000))
  await database.stop()
}
