// `npm run fuzz`: the fuzzer against a running Toolroom (TOOLROOM_URL, loopback only), or against one
// it starts itself (embedded PostgreSQL in .data/pg17-fuzz, a fresh demo database, the production
// build, the lean gateway in front of Next.js, as `npm start` runs them). Prints a summary and exits 1
// on any 5xx or timeout (or when the server stopped answering).
//
//   npm run fuzz -- [--requests 10000] [--seed 13] [--seconds 1200] [--concurrency 4] [--timeout-ms 15000]
//                   [--exclude nul,bad-cursor] [--case N] [--json report.json]
//
// Against your own `npm start`: TOOLROOM_URL=http://127.0.0.1:3000 and TOOLROOM_ADMIN_TOKEN (the one
// npm start was given; without it the fuzzer signs in as the demo admin and makes a token).
// `--case N` replays one case of a seed and prints it with its answer.
import 'dotenv/config'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runNode } from '../bench/bench-server.mjs'
import { startEmbeddedPostgres } from '../embedded-postgres.mjs'
import { freshDatabase, migrateDatabase } from '../fresh-database.mjs'
import { needsBuild, recordBuild } from '../start-helpers.mjs'
import { stopChild } from '../stop-child.mjs'
import { CASE_TAGS, assertLoopback, formatSummary, generateCase, prepareFuzz, runFuzz, send, serverMemory } from './fuzz.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const log = (...a) => console.log('[fuzz]', ...a)
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: process.env.FUZZ_REQUESTS ?? '10000' },
    seed: { type: 'string', default: process.env.FUZZ_SEED ?? '13' },
    seconds: { type: 'string', default: process.env.FUZZ_SECONDS ?? '1800' },
    concurrency: { type: 'string', default: process.env.FUZZ_CONCURRENCY ?? '4' },
    'timeout-ms': { type: 'string', default: process.env.FUZZ_TIMEOUT_MS ?? '15000' },
    exclude: { type: 'string', default: process.env.FUZZ_EXCLUDE ?? '' },
    case: { type: 'string' },
    json: { type: 'string' },
  },
})
const exclude = new Set(
  args.exclude
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
)
for (const tag of exclude) if (!(tag in CASE_TAGS)) throw new Error(`--exclude: "${tag}" is not a case tag (${Object.keys(CASE_TAGS).join(', ')})`)

const children = []
let embedded = null

async function stop() {
  for (const child of children.reverse()) await stopChild(child, 5000)
  await embedded?.stop()
}

async function healthy(base, ms = 500) {
  try {
    return (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(ms) })).ok
  } catch {
    return false
  }
}

async function waitHealthy(base, child) {
  for (let i = 0; i < 600; i++) {
    if (child && child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${base}/api/health answered`)
    if (await healthy(base)) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${base}/api/health did not answer within 2 minutes`)
}

/** A server of the fuzzer's own, like `npm start` (gateway in front of Next.js) on a fresh demo database. */
async function startOwnServer(port) {
  const dataDir = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
  process.env.TOOLROOM_SECRET_KEY ??= 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
  embedded = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'pg17-fuzz'),
    port: Number(process.env.FUZZ_PG_PORT ?? process.env.TOOLROOM_EMBEDDED_PG_PORT ?? 55660),
    database: 'postgres',
  })
  const databaseUrl = await freshDatabase(embedded.url, 'toolroom_fuzz')
  await migrateDatabase(databaseUrl)
  const adminToken = `trk_fuzz${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('hex')}`
  const env = { DATABASE_URL: databaseUrl, NODE_ENV: 'production', TOOLROOM_ADMIN_TOKEN: adminToken }
  await runNode([...TSX_NODE_ARGS, 'scripts/seed-demo.ts'], env, { capture: true })
  await runNode([...TSX_NODE_ARGS, 'scripts/ensure-admin-token.ts'], env, { capture: true })
  if (needsBuild()) {
    log('building the web app (the sources changed since the last build)…')
    await runNode(['node_modules/next/dist/bin/next', 'build'], {}, { capture: true })
    recordBuild()
  }
  const logFile = fs.openSync(path.join(dataDir, 'fuzz-server.log'), 'w')
  const spawnLogged = (argv, extra) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', logFile, logFile], env: { ...process.env, ...env, ...extra } })
    children.push(child)
    return child
  }
  const web = spawnLogged(['node_modules/next/dist/bin/next', 'start', '-p', String(port + 1), '-H', '127.0.0.1'], {})
  await waitHealthy(`http://127.0.0.1:${port + 1}`, web)
  const gateway = spawnLogged([...TSX_NODE_ARGS, 'scripts/gateway.ts'], {
    GATEWAY_PORT: String(port),
    TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${port + 1}`,
  })
  await waitHealthy(`http://127.0.0.1:${port}`, gateway)
  log(
    `own server at http://127.0.0.1:${port} (gateway) → :${port + 1} (Next.js); output in ${path.relative(process.cwd(), path.join(dataDir, 'fuzz-server.log'))}`,
  )
  return { base: `http://127.0.0.1:${port}`, adminToken }
}

/** An admin API token for a server someone else started: TOOLROOM_ADMIN_TOKEN, else one made by signing in. */
async function adminTokenFor(base) {
  if (process.env.TOOLROOM_ADMIN_TOKEN) return process.env.TOOLROOM_ADMIN_TOKEN
  const email = process.env.FUZZ_ADMIN_EMAIL ?? 'admin@toolroom.local'
  const password = process.env.FUZZ_ADMIN_PASSWORD ?? 'toolroom-demo-admin'
  const signIn = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!signIn.ok) throw new Error(`set TOOLROOM_ADMIN_TOKEN: signing in as ${email} answered ${signIn.status}`)
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const made = await fetch(`${base}/api/v1/tokens`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `fuzz ${new Date().toISOString()}`, scopes: ['read', 'write', 'approve', 'admin'], expiresInDays: 1 }),
  })
  if (!made.ok) throw new Error(`making an API token: ${made.status} ${await made.text()}`)
  return (await made.json()).token
}

let code = 0
try {
  const port = Number(process.env.PORT ?? 3000)
  let base = process.env.TOOLROOM_URL?.replace(/\/$/, '')
  let adminToken
  if (!base && (await healthy(`http://127.0.0.1:${port}`))) base = `http://127.0.0.1:${port}`
  if (base) {
    assertLoopback(base)
    adminToken = await adminTokenFor(base)
    log(`target: ${base}`)
  } else ({ base, adminToken } = await startOwnServer(port))

  const setup = await prepareFuzz({ baseUrl: base, adminToken, agentName: process.env.FUZZ_AGENT })
  const seed = Number(args.seed)
  if (args.case !== undefined) {
    const c = generateCase(setup, seed, Number(args.case), exclude)
    const r = await send(setup, c, { agent: undefined, timeoutMs: Number(args['timeout-ms']) })
    console.log(
      JSON.stringify(
        { case: { ...c, tags: [...c.tags], body: c.body?.length > 2000 ? `${c.body.slice(0, 2000)}… (${c.body.length} chars)` : c.body }, answer: r },
        null,
        2,
      ),
    )
  } else {
    const url = new URL(base)
    const ports = [Number(url.port || 80), Number(url.port || 80) + 1]
    const before = serverMemory(ports)
    log(
      `seed ${seed}, ${args.requests} requests, concurrency ${args.concurrency}, agent "${setup.agent.name}" with ${Object.keys(setup.tools).length} tools, ${setup.ops.length} operations${exclude.size ? `, excluding ${[...exclude].join(', ')}` : ''}`,
    )
    let lastLog = Date.now()
    const stats = await runFuzz(setup, {
      seed,
      count: Number(args.requests),
      seconds: Number(args.seconds),
      concurrency: Number(args.concurrency),
      timeoutMs: Number(args['timeout-ms']),
      exclude,
      onProgress: (s) => {
        if (Date.now() - lastLog < 10_000) return
        lastLog = Date.now()
        log(`${s.sent} sent, ${s.serverErrors} × 5xx, ${s.timeouts} timeouts`)
      },
    })
    await new Promise((r) => setTimeout(r, 2000))
    const after = serverMemory(ports)
    const alive = await healthy(base, 10_000)
    console.log(formatSummary(stats, { before, after }))
    console.log(
      `  machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ${new Date().toISOString()}`,
    )
    if (!alive) console.log('  the server no longer answers /api/health')
    if (args.json) fs.writeFileSync(args.json, JSON.stringify({ ...stats, memory: { before, after }, alive }, null, 2))
    if (stats.serverErrors > 0 || stats.timeouts > 0 || stats.generatorErrors.length > 0 || !alive) code = 1
  }
} catch (e) {
  console.error('[fuzz] error:', e.message ?? e)
  code = 1
}
await stop()
process.exit(code)
