// `npm run bench:scale`: the scale-out proof (docs/operations.md, "The processes"; BENCHMARKS.md, "Scale-out"). One PostgreSQL; 2 web, 3 gateway and
// 2 worker processes (the compiled production entries) behind a local load balancer (a small Node
// proxy: /mcp round-robin over the ready gateways, the rest over the web processes); agents calling
// through it with idempotency keys (some ops sent twice at once, every failed attempt retried with
// the same key), a rate-limited tool, and payments that wait for approval while an approver decides
// through the API. During the run: kill -9 of one gateway and one worker (restarted after a pause by
// the bench, as Kubernetes would), and one restart of PostgreSQL. Afterwards it checks and prints:
// 0 duplicate side effects (the upstream counts each op), the rate limit exact, 0 lost approved
// calls, every answered call recorded once, every process ready again with nobody restarting
// anything by hand; then calls/s with 1, 2 and 3 gateways side by side. Exits 1 if an invariant fails.
// Everything listens on loopback; ports are the OS's (port 0). BENCH_SCALE_SECONDS (default 60) sets
// the fault phase, BENCH_SCALE_AGENTS (16) the concurrent agents; `--smoke` runs a short version.
import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { freePort } from '../free-port.mjs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { startEmbeddedPostgres } from '../embedded-postgres.mjs'
import { freshDatabase, migrateDatabase } from '../fresh-database.mjs'
import { buildForProduction, PRODUCTION_ARGS } from '../production-stack.mjs'
import { stopChild } from '../stop-child.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const SMOKE = process.argv.includes('--smoke')
const LOAD_SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? (SMOKE ? 24 : 60))
const AGENT_LOOPS = Number(process.env.BENCH_SCALE_AGENTS ?? 16)
const THROUGHPUT_SECONDS = Number(process.env.BENCH_SCALE_THROUGHPUT_SECONDS ?? (SMOKE ? 4 : 15))
// Low enough that the agents ask for more than it allows even on a slow, loaded machine.
const LIMIT_PER_DAY = Number(process.env.BENCH_SCALE_LIMIT ?? (SMOKE ? 6 : 30))
const AGENTS = 4
const SECRET_KEY = randomBytes(32).toString('base64')
const ADMIN_TOKEN = `trk_${randomBytes(20).toString('hex')}`
const OUT = path.resolve('.data/bench-scale')
const PG_DIR = path.resolve('.data/pg17-scale')
const PG_PORT = Number(process.env.TOOLROOM_BENCH_PG_PORT ?? 55650)
const t0 = Date.now()
const log = (...args) => console.log(`[scale ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s]`, ...args)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function runNode(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`))))
  })
}

// --- The upstream: counts every side effect by op ------------------------------------------------
const upstream = { writes: new Map(), pays: new Map(), limited: 0, reads: 0 }
async function startUpstream() {
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url, 'http://x')
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : Object.fromEntries(url.searchParams)
      const count = (map) => map.set(body.op, (map.get(body.op) ?? 0) + 1)
      if (url.pathname === '/write') count(upstream.writes)
      else if (url.pathname === '/pay') count(upstream.pays)
      else if (url.pathname === '/limited') upstream.limited++
      else if (url.pathname === '/read') upstream.reads++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  server.keepAliveTimeout = 65_000
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(r)
      }),
  }
}

// --- Processes, restarted when they die (as a kubelet would), never by hand ----------------------
const processes = []
let stopping = false
function startProcess(name, args, env, readyUrl) {
  const p = { name, args, env, readyUrl, child: null, pids: [], restarts: 0, killedByBench: 0 }
  const logFile = fs.openSync(path.join(OUT, `${name}.log`), 'a')
  const launch = () => {
    p.child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', logFile, logFile] })
    p.pids.push(p.child.pid)
    p.child.once('exit', (code, signal) => {
      if (stopping) return
      log(`${name} exited (${code ?? signal}); restarting it in 2 s`)
      p.restarts++
      setTimeout(() => !stopping && launch(), 2000)
    })
  }
  launch()
  processes.push(p)
  return p
}

async function isReady(p) {
  try {
    const res = await fetch(p.readyUrl, { signal: AbortSignal.timeout(2000) })
    return res.ok
  } catch {
    return false
  }
}

async function waitReady(list, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const states = await Promise.all(list.map(isReady))
    if (states.every(Boolean)) return true
    if (Date.now() > deadline) return list.filter((_, i) => !states[i]).map((p) => p.name)
    await sleep(250)
  }
}

// --- The load balancer ----------------------------------------------------------------------------
function startBalancer(gateways, webs) {
  const ready = new Map()
  const state = { gatewaysInUse: gateways.length, next: 0, nextWeb: 0, proxied: 0, unavailable: 0 }
  const check = async () => {
    for (const p of [...gateways, ...webs]) ready.set(p, await isReady(p))
  }
  const timer = setInterval(() => void check(), 300)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })
  const pick = (pool, key) => {
    for (let i = 0; i < pool.length; i++) {
      const p = pool[(state[key] + i) % pool.length]
      if (ready.get(p)) {
        state[key] = (state[key] + i + 1) % pool.length
        return p
      }
    }
    return null
  }
  const server = http.createServer((req, res) => {
    const isMcp = req.url.split('?')[0] === '/mcp'
    const target = isMcp ? pick(gateways.slice(0, state.gatewaysInUse), 'next') : pick(webs, 'nextWeb')
    if (!target) {
      state.unavailable++
      req.resume()
      return void res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready backend')
    }
    state.proxied++
    const upstreamReq = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers)
      answer.pipe(res)
    })
    upstreamReq.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end('backend failed')
    })
    req.pipe(upstreamReq)
  })
  server.keepAliveTimeout = 65_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', async () => {
      await check()
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        state,
        close: () =>
          new Promise((r) => {
            clearInterval(timer)
            server.closeAllConnections()
            server.close(r)
          }),
      })
    }),
  )
}

// --- Agents -----------------------------------------------------------------------------------------
const attempts = [] // every HTTP attempt: { requestId, answered, outcome }
const ops = { write: new Map(), pay: new Map(), limited: { allowed: 0, refused: 0, other: 0 } }

async function mcpCall(base, token, tool, args, key) {
  const requestId = randomUUID()
  const record = { requestId, answered: false, kind: 'transport' }
  attempts.push(record)
  try {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'x-request-id': requestId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: tool, arguments: args, ...(key ? { _meta: { idempotencyKey: key } } : {}) },
      }),
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    if (res.status !== 200) {
      record.kind = `http ${res.status}`
      return { retry: true }
    }
    const body = JSON.parse(text)
    if (body.result) {
      record.answered = true
      record.kind = body.result.structuredContent?.status === 'approval_required' ? 'approval_required' : body.result.isError ? 'tool_error' : 'ok'
      return { result: body.result }
    }
    const data = body.error?.data ?? {}
    // A pipeline answer names its call; an error without one (the database was down) was not recorded.
    record.answered = typeof data.callId === 'string'
    record.kind = `rpc ${body.error?.code}`
    return { error: body.error, retry: body.error?.code === -32603 || body.error?.code === -32009 }
  } catch (e) {
    record.kind = e.name === 'TimeoutError' ? 'timeout' : 'transport'
    return { retry: true }
  }
}

/** One op with its idempotency key: retried with the same key until answered (or given up). */
async function withRetries(base, token, tool, args, key) {
  for (let attempt = 1; attempt <= 12; attempt++) {
    const answer = await mcpCall(base, token, tool, args, key)
    if (!answer.retry) return answer
    await sleep(Math.min(3000, 150 * 2 ** Math.min(attempt, 5)))
  }
  return { gaveUp: true }
}

async function agentLoop(base, token, until) {
  while (Date.now() < until) {
    const r = Math.random()
    const op = randomUUID()
    if (r < 0.55) {
      // A side effect with an idempotency key; one in five is sent twice at once (a double submit).
      const twice = Math.random() < 0.2
      const answers = await Promise.all(Array.from({ length: twice ? 2 : 1 }, () => withRetries(base, token, 'scale.write', { op }, `write-${op}`)))
      ops.write.set(op, answers.some((a) => a.result && !a.result.isError) ? 'ok' : answers.some((a) => a.gaveUp) ? 'gave-up' : 'error')
    } else if (r < 0.85) {
      const answer = await withRetries(base, token, 'scale.limited', { op })
      if (answer.result && !answer.result.isError) ops.limited.allowed++
      else if (answer.error?.code === -32029) ops.limited.refused++
      else ops.limited.other++
    } else {
      const answer = await withRetries(base, token, 'scale.pay', { op }, `pay-${op}`)
      ops.pay.set(op, answer.result?.structuredContent?.status ?? (answer.gaveUp ? 'gave-up' : 'other'))
    }
  }
}

async function approverLoop(base, until) {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
  let decided = 0
  while (Date.now() < until()) {
    try {
      const res = await fetch(`${base}/api/v1/approvals?status=pending&limit=100`, { headers, signal: AbortSignal.timeout(10_000) })
      if (res.ok) {
        const { items } = await res.json()
        for (const a of items) {
          const d = await fetch(`${base}/api/v1/approvals/${a.id}/approve`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ comment: 'bench' }),
            signal: AbortSignal.timeout(10_000),
          }).catch(() => null)
          if (d?.ok) decided++
        }
      }
    } catch {
      // the portal or the database is restarting: ask again
    }
    await sleep(300)
  }
  return decided
}

// --- Throughput with 1, 2 and 3 gateways -----------------------------------------------------------
async function throughput(base, token, seconds) {
  const result = await autocannon({
    url: `${base}/mcp`,
    method: 'POST',
    connections: 32,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scale.read', arguments: { op: 'tp' } } }),
  })
  return { callsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors }
}

// --- Main -------------------------------------------------------------------------------------------
let loadAtStart = ''
async function main() {
  loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
  fs.rmSync(OUT, { recursive: true, force: true })
  fs.mkdirSync(OUT, { recursive: true })
  await buildForProduction({ log })

  let postgres = await startEmbeddedPostgres({ dataDir: PG_DIR, port: PG_PORT, database: 'postgres' })
  const databaseUrl = await freshDatabase(postgres.url, 'toolroom_scale')
  await migrateDatabase(databaseUrl)
  const up = await startUpstream()
  const common = {
    DATABASE_URL: databaseUrl,
    TOOLROOM_SECRET_KEY: SECRET_KEY,
    LOG_FORMAT: 'json',
    NODE_ENV: 'production',
    TOOLROOM_OUTBOUND_ALLOW: 'loopback',
    TOOLROOM_DISCOVERY_CRON: '0 0 1 1 *',
    TOOLROOM_WORKER_POLL_SECONDS: '0.5',
    TOOLROOM_SIGNIN_ATTEMPTS: '100000',
    // An approved call whose worker was killed mid-call is taken up again (and, not idempotent, closed
    // as failed) once its job expires: 30 s here instead of 10 minutes, so the run can wait for it.
    TOOLROOM_APPROVED_CALL_EXPIRY_SECONDS: '30',
    // A repeat of a key whose first call died with its gateway waits for it (30 s by default, as long
    // as the agents' own timeout) until the key's lease ends: 5 s here, so the repeat is answered
    // "still in progress" (-32009) and retried, instead of timing out 12 times and stretching the run.
    TOOLROOM_IDEMPOTENCY_WAIT_MS: '5000',
  }
  const { tokens } = JSON.parse(
    (
      await runNode([...TSX_NODE_ARGS, 'scripts/bench/scale-seed.mts'], {
        ...common,
        UPSTREAM_URL: up.url,
        AGENTS: String(AGENTS),
        LIMIT_PER_DAY: String(LIMIT_PER_DAY),
        TOOLROOM_ADMIN_TOKEN: ADMIN_TOKEN,
      })
    )
      .trim()
      .split('\n')
      .pop(),
  )
  log(`database migrated and seeded; upstream at ${up.url}`)

  const webs = []
  for (let i = 1; i <= 2; i++) {
    const port = await freePort()
    const p = startProcess(`web-${i}`, PRODUCTION_ARGS.web({ port }), { ...common, NEXT_TELEMETRY_DISABLED: '1' }, `http://127.0.0.1:${port}/api/health`)
    p.port = port
    webs.push(p)
  }
  const gateways = []
  for (let i = 1; i <= 3; i++) {
    const [port, metrics] = [await freePort(), await freePort()]
    const p = startProcess(
      `gateway-${i}`,
      PRODUCTION_ARGS.gateway(),
      { ...common, GATEWAY_PORT: String(port), HOST: '127.0.0.1', TOOLROOM_METRICS_PORT: String(metrics) },
      `http://127.0.0.1:${metrics}/readyz`,
    )
    p.port = port
    gateways.push(p)
  }
  const workers = []
  for (let i = 1; i <= 2; i++) {
    const metrics = await freePort()
    workers.push(
      startProcess(`worker-${i}`, PRODUCTION_ARGS.worker(), { ...common, TOOLROOM_METRICS_PORT: String(metrics) }, `http://127.0.0.1:${metrics}/readyz`),
    )
  }
  const notReady = await waitReady(processes, 180_000)
  if (notReady !== true) throw new Error(`not ready: ${notReady.join(', ')}`)
  const lb = await startBalancer(gateways, webs)
  log(`2 web, 3 gateway and 2 worker processes ready behind ${lb.url}`)

  // The fault phase.
  const t0Load = Date.now()
  const until = t0Load + LOAD_SECONDS * 1000
  let approving = true
  const approver = approverLoop(lb.url, () => (approving ? Infinity : 0))
  const agents = Array.from({ length: AGENT_LOOPS }, (_, i) => agentLoop(lb.url, tokens[i % tokens.length], until))
  const faults = (async () => {
    const at = (fraction) => sleep(Math.max(0, t0Load + LOAD_SECONDS * 1000 * fraction - Date.now()))
    await at(0.25)
    log(`kill -9 ${gateways[1].name} (pid ${gateways[1].child.pid})`)
    gateways[1].killedByBench++
    gateways[1].child.kill('SIGKILL')
    await at(0.4)
    log(`kill -9 ${workers[0].name} (pid ${workers[0].child.pid})`)
    workers[0].killedByBench++
    workers[0].child.kill('SIGKILL')
    await at(0.6)
    log('restarting PostgreSQL (stop, 3 s down, start)')
    await postgres.stop()
    await sleep(3000)
    postgres = await startEmbeddedPostgres({ dataDir: PG_DIR, port: PG_PORT, database: 'postgres' })
    log('PostgreSQL is back')
  })()
  await Promise.all([...agents, faults])
  log(`load done: ${attempts.length} HTTP attempts; waiting for the approvals to be decided and run`)

  // Drain: every request decided, every approved call run.
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const drainDeadline = Date.now() + 120_000
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'approved' AND execution IN ('queued', 'running')) AS running FROM "ApprovalRequest"`,
    )
    if (Number(rows[0].pending) === 0 && Number(rows[0].running) === 0) break
    if (Date.now() > drainDeadline) {
      log(`drain timed out: ${rows[0].pending} pending, ${rows[0].running} approved and not yet run`)
      break
    }
    await sleep(500)
  }
  approving = false
  const decided = await approver
  const healthy = await waitReady(processes, 60_000)

  // Invariants.
  const checks = []
  const check = (name, ok, detail) => checks.push({ name, ok, detail })
  const dupWrites = [...upstream.writes.values()].filter((n) => n > 1).length
  const dupPays = [...upstream.pays.values()].filter((n) => n > 1).length
  const okWritesMissing = [...ops.write].filter(([op, state]) => state === 'ok' && upstream.writes.get(op) !== 1).length
  check(
    '0 duplicate side effects',
    dupWrites === 0 && dupPays === 0 && okWritesMissing === 0,
    `${upstream.writes.size} write ops executed, ${dupWrites} more than once; ${upstream.pays.size} payments, ${dupPays} more than once; ${okWritesMissing} ops answered ok but not executed exactly once`,
  )

  const limitedRows = (await db.query(`SELECT outcome, count(*)::int AS n FROM "ToolCall" WHERE "toolId" = 'scale.limited' GROUP BY 1`)).rows
  const byOutcome = Object.fromEntries(limitedRows.map((r) => [r.outcome, r.n]))
  const admitted = (byOutcome.succeeded ?? 0) + (byOutcome.failed ?? 0)
  // One window a day (two if the run crossed midnight UTC): each must have let exactly the limit through.
  const windows = (await db.query(`SELECT count FROM "GatewayRateCounter" WHERE scope = 't:scale.limited:d'`)).rows.map((r) => r.count)
  const counter = windows.reduce((a, b) => a + b, 0)
  const capacity = LIMIT_PER_DAY * Math.max(1, windows.length)
  check(
    'rate limit exact',
    windows.length > 0 &&
      windows.every((n) => n <= LIMIT_PER_DAY) &&
      windows.at(-1) === LIMIT_PER_DAY &&
      admitted <= capacity &&
      upstream.limited <= capacity &&
      (byOutcome.rate_limited ?? 0) > 0,
    `limit ${LIMIT_PER_DAY}/day: counter ${counter}, admitted calls recorded ${admitted}, upstream hits ${upstream.limited}, refused ${byOutcome.rate_limited ?? 0}`,
  )

  const approvals = (await db.query(`SELECT status, execution, count(*)::int AS n FROM "ApprovalRequest" GROUP BY 1, 2 ORDER BY 1, 2`)).rows
  const approved = approvals.filter((a) => a.status === 'approved')
  const lost = approved.filter((a) => a.execution !== 'succeeded' && a.execution !== 'failed').reduce((s, a) => s + a.n, 0)
  const succeededPays = approved.filter((a) => a.execution === 'succeeded').reduce((s, a) => s + a.n, 0)
  const interrupted = (await db.query(`SELECT count(*)::int AS n FROM "ApprovalRequest" WHERE execution = 'failed'`)).rows[0].n
  check(
    '0 lost approved calls',
    lost === 0 && succeededPays <= upstream.pays.size && dupPays === 0,
    `${approved.reduce((s, a) => s + a.n, 0)} approved: ${succeededPays} ran once, ${interrupted} closed as failed (worker killed mid-call; not repeated: the tool is not idempotent), ${lost} lost; upstream payments ${upstream.pays.size}`,
  )

  const answered = attempts.filter((a) => a.answered)
  const recorded = new Map(
    (
      await db.query(`SELECT "requestId", count(*)::int AS n FROM "ToolCall" WHERE "requestId" = ANY($1) GROUP BY 1`, [answered.map((a) => a.requestId)])
    ).rows.map((r) => [r.requestId, r.n]),
  )
  const notOnce = answered.filter((a) => recorded.get(a.requestId) !== 1).length
  const unanswered = attempts.length - answered.length
  const kinds = {}
  for (const a of attempts.filter((x) => !x.answered)) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1
  check(
    'every answered call recorded once',
    notOnce === 0,
    `${answered.length} answered calls, ${notOnce} not recorded exactly once; ${unanswered} attempts got no pipeline answer (${
      Object.entries(kinds)
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ') || 'none'
    }) and were retried with their key`,
  )

  const survivors = processes.filter((p) => p.killedByBench === 0)
  const restartedByItself = survivors.filter((p) => p.restarts > 0).map((p) => p.name)
  check(
    'every process healthy again, none restarted by hand',
    healthy === true && restartedByItself.length === 0,
    `${healthy === true ? 'all 7 ready' : `not ready: ${healthy.join(', ')}`}; killed by the bench and restarted as a kubelet would: ${processes
      .filter((p) => p.killedByBench)
      .map((p) => `${p.name} (pids ${p.pids.join(' → ')})`)
      .join(', ')}; the others kept their pid through the PostgreSQL restart${restartedByItself.length ? `, except ${restartedByItself.join(', ')}` : ''}`,
  )

  console.log('\nInvariants')
  for (const c of checks) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`)
  console.log(
    `  (ops: ${ops.write.size} writes, ${ops.pay.size} payments, ${ops.limited.allowed + ops.limited.refused + ops.limited.other} limited reads; ${decided} approvals decided by the approver; balancer answered ${lb.state.unavailable} requests with 503 while no backend was ready)`,
  )

  // Throughput with 1, 2, 3 gateways behind the balancer.
  const rows = []
  for (const n of [1, 2, 3]) {
    lb.state.gatewaysInUse = n
    await throughput(lb.url, tokens[0], 2) // warm
    rows.push({ gateways: n, ...(await throughput(lb.url, tokens[0], THROUGHPUT_SECONDS)) })
  }
  console.log(`\nCalls/s through the balancer (read-only REST tool, 32 connections, ${THROUGHPUT_SECONDS} s each)`)
  console.log('  gateways  calls/s  p50 ms  p99 ms  non-2xx  errors')
  for (const r of rows)
    console.log(
      `  ${String(r.gateways).padStart(8)}  ${String(r.callsPerSecond).padStart(7)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.non2xx).padStart(7)}  ${String(r.errors).padStart(6)}`,
    )

  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; load average at the end ${load} (at the start ${loadAtStart})`,
  )
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAtStart, loadAtEnd: load },
    loadSeconds: LOAD_SECONDS,
    agentLoops: AGENT_LOOPS,
    checks,
    throughput: rows,
    attempts: attempts.length,
  }
  fs.writeFileSync(path.join(OUT, 'result.json'), JSON.stringify(result, null, 2))
  await db.end()
  stopping = true
  await lb.close()
  await Promise.all(processes.map((p) => p.child && stopChild(p.child)))
  await up.close()
  await postgres.stop()
  console.log(
    `\n${checks.filter((c) => c.ok).length} passed, ${checks.filter((c) => !c.ok).length} failed (process logs in ${path.relative(process.cwd(), OUT)}/)`,
  )
  return checks.every((c) => c.ok) ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('[scale] failed:', error)
    stopping = true
    for (const p of processes) p.child?.kill('SIGKILL')
    process.exit(1)
  },
)
