// npm run bench:gateway — a read-only tool on a local SDK MCP server, called directly and through
// the gateway, side by side in one run, at 1 and at 20 connections. Every gateway call is recorded in
// PostgreSQL before it is answered (the run checks the row count). Prints throughput, p50/p99 and the
// ratio; record the figures in BENCHMARKS.md. The same calls also go through the floors of issue 32's
// rows (gateway-hop.mjs): one bare hop, and one hop that commits a row per call.
//   BENCH_SECONDS (default 10) per measurement; BENCH_TARGET=lean (default) or next (the same handler
//   in `next start` at /mcp, needs a build); TOOLROOM_BENCH_PG_PORT for the embedded PostgreSQL;
//   BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the lean gateway there.
//   BENCH_TRACING=on exports the gateway's spans to a local OTLP/HTTP sink (counted, then dropped):
//   tracing's cost; off (the default) the OpenTelemetry SDK is never loaded. BENCH_GATEWAY_DIR=<dir>
//   runs the lean gateway of another checkout (its sources, with this one's node_modules linked in),
//   for an A/B of two commits in one run's conditions. BENCH_UPSTREAM_AUTH=bearer (a static
//   Authorization header from a Secret) or oauth2 (a token from a local oidc-provider by the client
//   credentials grant, cached) or token_exchange (the bench agent calls for a person, whose token
//   the gateway exchanges at that oidc-provider, RFC 8693, once, then cached) makes the upstream
//   take only authenticated calls: compare the gateway's CPU per call of the runs. BENCH_POLICIES=<n> applies n Policies that all reach the
//   bench agent and tool, each with a condition over the arguments that does not match (every rule
//   of every one is evaluated on every call): compare with a run without. BENCH_RATE_LIMIT=1 gives the
//   bench agent per-minute and per-day limits no run reaches: every call is then counted in
//   PostgreSQL before it runs, as a limited agent's or tool's calls are.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import autocannon from 'autocannon'
import pg from 'pg'
import { benchDatabase } from '../fresh-database.mjs'
import { buildForProduction, PRODUCTION_ARGS } from '../production-stack.mjs'
import { stopChild } from '../stop-child.mjs'
import { BENCH_SECRET_KEY as SECRET_KEY } from './bench-server.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'
import { benchName, reportRows } from './bench-rows.mjs'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const TARGET = process.env.BENCH_TARGET ?? 'lean'
const GATEWAY_PORT = process.env.BENCH_PORT ?? '4131'
const UPSTREAM_PORT = process.env.BENCH_UPSTREAM_PORT ?? '4132'
const log = (...a) => console.log('[bench]', ...a)
const children = []

function start(args, env, readyPattern, cwd = process.cwd()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
    children.push(child)
    start.last = child
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), 120_000)
    child.stdout.on('data', (d) => {
      out += d
      const m = readyPattern.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m)
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)))
  })
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** CPU seconds of the benchmark's embedded PostgreSQL (postmaster and its backends), or null with DATABASE_URL. */
function postgresCpuSeconds() {
  if (process.env.DATABASE_URL) return null
  const postmaster = Number(fs.readFileSync('.data/pg17-bench/postmaster.pid', 'utf8').split('\n')[0])
  let total = cpuSeconds(postmaster)
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')
      if (Number(fields[1]) === postmaster) total += (Number(fields[11]) + Number(fields[12])) / 100
    } catch {
      // the process ended while we looked
    }
  }
  return total
}

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`))))
  })
}

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup', arguments: { key: 'k1' } } })
const gatewayBody = body.replace('"lookup"', '"bench.lookup"')

async function load(url, headers, requestBody, connections) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: DURATION,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body: requestBody,
    expectBody: undefined,
  })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${url} at ${connections} connections: ${bad} failed requests`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total }
}

/**
 * One connection, one call at a time, timed to the microsecond (autocannon's latencies are whole
 * milliseconds, too coarse for a target of 3 ms added). Returns p50/p99 in ms.
 */
async function sequentialLatency(url, headers, requestBody, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const allHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'content-length': Buffer.byteLength(requestBody),
    ...headers,
  }
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint()
      const req = http.request(url, { method: 'POST', headers: allHeaders, agent }, (res) => {
        res.on('data', () => {})
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${url} answered ${res.statusCode}`)),
        )
      })
      req.on('error', reject)
      req.end(requestBody)
    })
  const times = []
  const until = Date.now() + seconds * 1000
  while (Date.now() < until) times.push(await once())
  agent.destroy()
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)], n: times.length }
}

async function check(url, headers, requestBody) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: requestBody,
  })
  const text = await res.text()
  if (!res.ok || !text.includes('value of k1')) throw new Error(`${url} answered ${res.status}: ${text}`)
}

/** A local OTLP/HTTP endpoint that counts the spans it is sent (BENCH_TRACING=on). */
let spanSink = null
function startSpanSink() {
  const sink = { spans: 0, url: '' }
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      try {
        for (const rs of JSON.parse(Buffer.concat(chunks).toString('utf8')).resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? []) sink.spans += ss.spans?.length ?? 0
      } catch {
        // not JSON: not counted
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      server.unref()
      sink.url = `http://127.0.0.1:${server.address().port}`
      resolve(sink)
    }),
  )
}

const db = await benchDatabase('toolroom_bench_gateway')
try {
  const env = { DATABASE_URL: db.url, TOOLROOM_SECRET_KEY: SECRET_KEY, NODE_ENV: 'production' }
  const upstreamAuth = process.env.BENCH_UPSTREAM_AUTH ?? 'none'
  const started = await start(['scripts/bench/gateway-upstream.mjs'], { UPSTREAM_PORT }, /upstream (\S+)/)
  const upstream = started[1]
  const issuer = /issuer (\S+)/.exec(started.input)?.[1]
  const upstreamPid = start.last.pid
  const { token } = JSON.parse(
    await run([...TSX_NODE_ARGS, 'scripts/bench/gateway-seed.mts'], {
      ...env,
      UPSTREAM_URL: upstream,
      BENCH_ISSUER: issuer ?? '',
      BENCH_PERSON_TOKEN: /person (\S+)/.exec(started.input)?.[1] ?? '',
      GATEWAY_PORT,
      BENCH_POLICIES: process.env.BENCH_POLICIES ?? '0',
      BENCH_RATE_LIMIT: process.env.BENCH_RATE_LIMIT ?? '0',
    }),
  )
  const upstreamHeaders = upstreamAuth === 'none' ? {} : { authorization: 'Bearer bench-static-token' }

  let gateway
  if (TARGET === 'next') {
    await buildForProduction({ log })
    await start(PRODUCTION_ARGS.web({ port: GATEWAY_PORT, preload: false }), env, /Ready|started server|Local:/)
    gateway = `http://127.0.0.1:${GATEWAY_PORT}/mcp`
  } else {
    // From source, not dist/: BENCH_GATEWAY_DIR measures another checkout's sources side by side
    // with these, with no build of its own (tsx compiles once at start; the calls run the same code).
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
    const tracing = process.env.BENCH_TRACING === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: (spanSink = await startSpanSink()).url } : {}
    const dir = process.env.BENCH_GATEWAY_DIR ?? process.cwd()
    const [, url] = await start(
      [...profile, ...TSX_NODE_ARGS, 'scripts/gateway.ts'],
      { ...env, ...tracing, GATEWAY_PORT, HOST: '127.0.0.1' },
      /listening on (http:\/\/[^\s"]+)/,
      dir,
    )
    gateway = url
  }
  const gatewayPid = start.last.pid
  // The floors: one hop in Node.js, and one hop with a committed row per call (gateway-hop.mjs).
  const hops = []
  for (const [name, extra] of [
    ['one hop', {}],
    ['one hop and a commit', { HOP_DATABASE_URL: db.url }],
  ]) {
    const [, url] = await start(['scripts/bench/gateway-hop.mjs'], { UPSTREAM_URL: upstream, ...extra }, /hop (\S+)/)
    hops.push({ name, url, pid: start.last.pid, commits: 'HOP_DATABASE_URL' in extra })
  }
  const auth = { authorization: `Bearer ${token}` }
  await check(upstream, upstreamHeaders, body)
  await check(gateway, auth, gatewayBody)

  log(
    `gateway sources: ${process.env.BENCH_GATEWAY_DIR ?? 'this checkout'}; upstream auth ${upstreamAuth}; rate limits ${process.env.BENCH_RATE_LIMIT === '1' ? 'counted on every call' : 'none'}; tracing ${spanSink ? `on (OTLP/HTTP to a local sink)` : 'off'}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  log(
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), node ${process.version}, ${DURATION} s per measurement, gateway: ${TARGET}, call records: ${process.env.TOOLROOM_GATEWAY_ASYNC_COMMIT === '1' ? 'asynchronous commit' : 'synchronous commit (flushed before the answer)'}`,
  )
  // Transactions the database committed, read before and after each gateway measurement: with group
  // commit, how many calls shared each call-record commit. Backends flush these statistics about once
  // a second, so the figure is rough (a second's worth at either end), enough to tell 1 from 0.3.
  const stats = new pg.Client({ connectionString: db.url })
  await stats.connect()
  const commits = async () => {
    await stats.query('SELECT pg_stat_force_next_flush()')
    const { rows } = await stats.query('SELECT sum(xact_commit)::bigint AS n FROM pg_stat_database')
    return Number(rows[0].n)
  }
  const rows = []
  for (const connections of [1, 20]) {
    // warm-up, then the two side by side
    await load(upstream, upstreamHeaders, body, connections).catch(() => {})
    const u0 = cpuSeconds(upstreamPid)
    const direct = await load(upstream, upstreamHeaders, body, connections)
    direct.upstreamCpuMs = ((cpuSeconds(upstreamPid) - u0) * 1000) / direct.total
    await load(gateway, auth, gatewayBody, Math.max(1, connections / 4)).catch(() => {})
    const g0 = cpuSeconds(gatewayPid)
    const u1 = cpuSeconds(upstreamPid)
    const p0 = postgresCpuSeconds()
    const c0 = await commits()
    const through = await load(gateway, auth, gatewayBody, connections)
    through.commitsPerCall = ((await commits()) - c0) / through.total
    through.gatewayCpuMs = ((cpuSeconds(gatewayPid) - g0) * 1000) / through.total
    through.upstreamCpuMs = ((cpuSeconds(upstreamPid) - u1) * 1000) / through.total
    through.postgresCpuMs = p0 === null ? null : ((postgresCpuSeconds() - p0) * 1000) / through.total
    const floors = []
    for (const hop of hops) {
      await load(hop.url, upstreamHeaders, body, Math.max(1, connections / 4)).catch(() => {})
      const h0 = cpuSeconds(hop.pid)
      // The bare hop has no database: PostgreSQL's figure would only be its idle processes' noise.
      const hp0 = hop.commits ? postgresCpuSeconds() : null
      const measured = await load(hop.url, upstreamHeaders, body, connections)
      measured.hopCpuMs = ((cpuSeconds(hop.pid) - h0) * 1000) / measured.total
      measured.postgresCpuMs = hp0 === null ? null : ((postgresCpuSeconds() - hp0) * 1000) / measured.total
      floors.push({ name: hop.name, url: hop.url, ...measured })
    }
    if (connections === 1) {
      direct.precise = await sequentialLatency(upstream, upstreamHeaders, body, DURATION / 2)
      through.precise = await sequentialLatency(gateway, auth, gatewayBody, DURATION / 2)
      for (const floor of floors) floor.precise = await sequentialLatency(floor.url, upstreamHeaders, body, DURATION / 2)
    }
    // Direct again after the others: this machine's speed drifts over a minute, and a ratio against
    // one measurement taken before the rest would carry that drift. The ratios use the mean of the two.
    const directAfter = await load(upstream, upstreamHeaders, body, connections)
    direct.rpsBefore = direct.rps
    direct.rpsAfter = directAfter.rps
    direct.rps = (direct.rpsBefore + direct.rpsAfter) / 2
    rows.push({ connections, direct, through, floors })
  }

  await stats.end()
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  const {
    rows: [counts],
  } = await client.query(`SELECT count(*)::int AS n, count(*) FILTER (WHERE outcome = 'succeeded')::int AS ok FROM "ToolCall"`)
  // With limits, each call that ran was first counted in the agent's day window (the rate-counter rows).
  const rateCounted =
    process.env.BENCH_RATE_LIMIT === '1'
      ? (await client.query(`SELECT coalesce(sum(count), 0)::int AS n FROM "GatewayRateCounter" WHERE scope LIKE 'a:%:d'`)).rows[0].n
      : null
  await client.end()

  console.log('\nconnections | direct calls/s | direct p50/p99 ms | gateway calls/s | gateway p50/p99 ms | throughput ratio | p50 added ms')
  for (const { connections, direct, through } of rows)
    console.log(
      `${String(connections).padStart(11)} | ${direct.rps.toFixed(0).padStart(14)} | ${`${direct.p50}/${direct.p99}`.padStart(17)} | ${through.rps.toFixed(0).padStart(15)} | ${`${through.p50}/${through.p99}`.padStart(18)} | ${(through.rps / direct.rps).toFixed(2).padStart(16)} | ${(through.p50 - direct.p50).toFixed(1).padStart(12)}`,
    )
  for (const { connections, direct } of rows)
    console.log(
      `direct at ${connections} connection(s), measured before and after the others: ${direct.rpsBefore.toFixed(0)} and ${direct.rpsAfter.toFixed(0)} calls/s (the ratios use their mean)`,
    )
  for (const { connections, direct, through } of rows)
    console.log(
      `CPU per call at ${connections} connection(s): upstream ${direct.upstreamCpuMs.toFixed(2)} ms direct; through the gateway: gateway ${through.gatewayCpuMs.toFixed(2)} ms + upstream ${through.upstreamCpuMs.toFixed(2)} ms${through.postgresCpuMs === null ? '' : ` + PostgreSQL ${through.postgresCpuMs.toFixed(2)} ms`}; ${through.commitsPerCall.toFixed(2)} database commits per call`,
    )
  console.log('\nthe floors: the same calls through one hop that only forwards (gateway-hop.mjs), and one that also commits a row per call')
  console.log('| path | connections | calls/s | p50/p99 ms | / direct | CPU per call: the hop | PostgreSQL |\n|---|---|---|---|---|---|---|')
  for (const { connections, direct, floors } of rows)
    for (const f of floors)
      console.log(
        `| ${f.name} | ${connections} | ${f.rps.toFixed(0)} | ${f.p50}/${f.p99} | ${(f.rps / direct.rps).toFixed(2)}× | ${f.hopCpuMs.toFixed(2)} ms | ${f.postgresCpuMs === null ? '—' : `${f.postgresCpuMs.toFixed(2)} ms`} |`,
      )
  const [one, twenty] = rows
  const added = one.through.precise.p50 - one.direct.precise.p50
  for (const f of one.floors)
    console.log(`${f.name}, 1 connection, timed in µs: p50 ${f.precise.p50.toFixed(2)} ms: ${(f.precise.p50 - one.direct.precise.p50).toFixed(2)} ms added`)
  console.log(
    `1 connection, one call at a time, timed in µs: direct p50 ${one.direct.precise.p50.toFixed(2)} ms (p99 ${one.direct.precise.p99.toFixed(2)}, ${one.direct.precise.n} calls), ` +
      `gateway p50 ${one.through.precise.p50.toFixed(2)} ms (p99 ${one.through.precise.p99.toFixed(2)}, ${one.through.precise.n} calls): ${added.toFixed(2)} ms added`,
  )
  console.log(
    `\ncalls recorded in ToolCall: ${counts.n} (${counts.ok} succeeded)${rateCounted === null ? '' : `; counted in the agent's daily window: ${rateCounted}`}${spanSink ? `; spans received by the OTLP sink: ${spanSink.spans}` : ''}; load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log(
    `targets: p50 added at 1 connection ≤ 3 ms: ${added <= 3 ? 'met' : 'MISSED'}; ` +
      `at 20 connections ≥ 0.5× direct: ${twenty.through.rps >= 0.5 * twenty.direct.rps ? 'met' : 'MISSED'}, ≥ 500 calls/s: ${twenty.through.rps >= 500 ? 'met' : 'MISSED'}`,
  )
  // Issue 32's rows (the gateway's cost per call), stricter than the targets above.
  reportRows(
    benchName('bench:gateway', [
      'BENCH_SECONDS',
      'BENCH_TARGET',
      'BENCH_TRACING',
      'BENCH_GATEWAY_DIR',
      'BENCH_UPSTREAM_AUTH',
      'BENCH_POLICIES',
      'BENCH_RATE_LIMIT',
      'TOOLROOM_GATEWAY_ASYNC_COMMIT',
    ]),
    [
      { name: 'through the gateway / direct, 20 connections', value: twenty.through.rps / twenty.direct.rps, unit: '×', better: 'higher', target: 0.9 },
      { name: 'gateway CPU per call, 20 connections', value: twenty.through.gatewayCpuMs, unit: 'ms', better: 'lower', target: 0.4 },
      { name: 'p50 added at 1 connection (µs loop)', value: added, unit: 'ms', better: 'lower', target: 1 },
      { name: 'calls/s through the gateway, 20 connections', value: twenty.through.rps, unit: 'calls/s', better: 'higher', target: 500 },
      ...twenty.floors.flatMap((f) => [
        { name: `${f.name} / direct, 20 connections`, value: f.rps / twenty.direct.rps, unit: '×', better: 'higher' },
        { name: `${f.name}: its CPU per call, 20 connections`, value: f.hopCpuMs, unit: 'ms', better: 'lower' },
      ]),
      ...one.floors.map((f) => ({
        name: `${f.name}: p50 added at 1 connection (µs loop)`,
        value: f.precise.p50 - one.direct.precise.p50,
        unit: 'ms',
        better: 'lower',
      })),
    ],
  )
} finally {
  await Promise.all(children.map((child) => stopChild(child)))
  await db.stop()
}
