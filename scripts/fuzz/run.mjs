// `npm run fuzz`: the fuzzer against a running Toolroom (TOOLROOM_URL, loopback only), or against one
// it starts itself (embedded PostgreSQL in .data/pg17-fuzz, a fresh demo database, the production
// build, the lean gateway in front of Next.js and a worker, as `npm start` runs them). Prints a summary
// and exits 1 on any defect an oracle sees (scripts/fuzz/oracles.mjs: 5xx, timeouts, dropped
// connections, Toolroom's own -32603, a success the route's contract does not admit, an internal
// origin), a run cut short, a row an anonymous request added, a finding of the scenario families
// (scripts/fuzz/families.mjs), or when the server stopped answering.
//
//   npm run fuzz -- [--requests 10000] [--seed N] [--seconds 1200] [--concurrency 4] [--timeout-ms 15000]
//                   [--exclude nul,bad-cursor] [--families auto|all|none|echo,drip,…] [--case N] [--json report.json]
//
// Without --seed (or FUZZ_SEED) every run draws a new seed and prints it: replay with --seed.
// The families change the registry (namespace fuzz-hostile): `auto` runs them on the fuzzer's own
// server only; `all` on yours too.
//
// Against your own `npm start`: TOOLROOM_URL=http://127.0.0.1:3000 and TOOLROOM_ADMIN_TOKEN (the one
// npm start was given; without it the fuzzer signs in as the demo admin and makes a token).
// `--case N` replays one case of a seed and prints it with its answer.
import 'dotenv/config'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runNode } from '../bench/bench-server.mjs'
import { startEmbeddedPostgres } from '../embedded-postgres.mjs'
import { freshDatabase, migrateDatabase } from '../fresh-database.mjs'
import { buildForProduction, portalAnswers, startProductionStack, waitForStack } from '../production-stack.mjs'
import { discoverViaApi, familyFindings, FAMILIES, formatFamilies, prepareFamilies, runFamilies, startHostileUpstreams } from './families.mjs'
import {
  CASE_TAGS,
  assertLoopback,
  countStateRows,
  failuresOf,
  formatSummary,
  generateCase,
  prepareFuzz,
  runFuzz,
  send,
  serverMemory,
  stateGrowth,
} from './fuzz.mjs'

const log = (...a) => console.log('[fuzz]', ...a)
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: process.env.FUZZ_REQUESTS ?? '10000' },
    seed: { type: 'string', default: process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31)) },
    seconds: { type: 'string', default: process.env.FUZZ_SECONDS ?? '1800' },
    concurrency: { type: 'string', default: process.env.FUZZ_CONCURRENCY ?? '4' },
    'timeout-ms': { type: 'string', default: process.env.FUZZ_TIMEOUT_MS ?? '15000' },
    exclude: { type: 'string', default: process.env.FUZZ_EXCLUDE ?? '' },
    families: { type: 'string', default: process.env.FUZZ_FAMILIES ?? 'auto' },
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

const stacks = []
let embedded = null

async function stop() {
  for (const stack of stacks) await stack.stop(5000)
  await embedded?.stop()
}

async function healthy(base, ms = 500) {
  try {
    return (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(ms) })).ok
  } catch {
    return false
  }
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
  await buildForProduction({ log })
  // The seed and the admin token as npm start makes them: compiled, from dist/.
  await runNode(['dist/seed-demo.cjs'], env, { capture: true })
  await runNode(['dist/ensure-admin-token.cjs'], env, { capture: true })
  const logFile = fs.openSync(path.join(dataDir, 'fuzz-server.log'), 'w')
  // The worker runs discovery, which the deep-schema family needs.
  const stack = await startProductionStack({ env, port, webPort: port + 1, workers: 1, output: logFile })
  stacks.push(stack)
  await waitForStack(stack, portalAnswers(stack), { timeoutMs: 120_000 })
  log(
    `own server at http://127.0.0.1:${port} (gateway) → :${port + 1} (Next.js); output in ${path.relative(process.cwd(), path.join(dataDir, 'fuzz-server.log'))}`,
  )
  return { base: `http://127.0.0.1:${port}`, adminToken, databaseUrl }
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
  let databaseUrl = process.env.DATABASE_URL
  let own = false
  if (!base && (await healthy(`http://127.0.0.1:${port}`))) base = `http://127.0.0.1:${port}`
  if (base) {
    assertLoopback(base)
    adminToken = await adminTokenFor(base)
    log(`target: ${base}`)
  } else {
    ;({ base, adminToken, databaseUrl } = await startOwnServer(port))
    own = true
  }
  const families =
    args.families === 'none' || (args.families === 'auto' && !own)
      ? []
      : args.families === 'all' || args.families === 'auto'
        ? FAMILIES
        : args.families.split(',')
  for (const f of families) if (!FAMILIES.includes(f)) throw new Error(`--families: "${f}" is not a family (${FAMILIES.join(', ')})`)

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
      `seed ${seed} (replay: npm run fuzz -- --seed ${seed}), ${args.requests} requests, concurrency ${args.concurrency}, agent "${setup.agent.name}" with ${Object.keys(setup.tools).length} tools, ${setup.ops.length} operations${exclude.size ? `, excluding ${[...exclude].join(', ')}` : ''}`,
    )
    let lastLog = Date.now()
    const rowsBefore = await countStateRows(databaseUrl)
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
    // The admin's requests of the run act at the origin the fuzzer reaches the server at.
    const grown = stateGrowth(rowsBefore, await countStateRows(databaseUrl), [new URL(base).origin])
    let familiesReport = {}
    if (families.length) {
      const upstreams = await startHostileUpstreams()
      try {
        const world = await prepareFamilies({
          baseUrl: base,
          adminToken,
          upstreamUrl: upstreams.url,
          secret: `fz/${crypto.randomUUID()}+"q\\z=`,
          discover: discoverViaApi(base, adminToken),
        })
        familiesReport = await runFamilies(world, { seed, count: 8, databaseUrl, only: families })
      } finally {
        await upstreams.close()
      }
    }
    await new Promise((r) => setTimeout(r, 2000))
    const after = serverMemory(ports)
    const alive = await healthy(base, 10_000)
    console.log(formatSummary(stats, { before, after }))
    if (!rowsBefore) console.log('  rows anonymous requests add: not counted (no DATABASE_URL)')
    for (const g of grown) console.log(`  ${g}`)
    if (families.length) console.log(formatFamilies(familiesReport))
    console.log(
      `  machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ${new Date().toISOString()}`,
    )
    if (!alive) console.log('  the server no longer answers /api/health')
    if (args.json) fs.writeFileSync(args.json, JSON.stringify({ ...stats, memory: { before, after }, alive, grown, families: familiesReport }, null, 2))
    const failures = [...failuresOf(stats), ...grown, ...familyFindings(familiesReport).map((f) => `${f.family}: ${f.defect}`)]
    if (!alive) failures.push('the server no longer answers /api/health')
    if (failures.length) {
      console.log(`  FAILED (seed ${seed}): ${failures.slice(0, 10).join('; ')}`)
      code = 1
    }
  }
} catch (e) {
  console.error('[fuzz] error:', e.message ?? e)
  code = 1
}
await stop()
process.exit(code)
