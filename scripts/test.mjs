// `npm test`: every test against real parts. ESLint and Prettier's check first (no database needed),
// then a fresh database (on the embedded PostgreSQL unless DATABASE_URL names a server to use),
// migrations, unit and integration tests (Vitest), end-to-end tests in Chromium against a production
// build (Playwright), then the unit tests and a real start of the processes on the other supported
// Node.js versions. Ends with one summary line.
import 'dotenv/config'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { startEmbeddedPostgres } from './embedded-postgres.mjs'
import { copyOfDatabase, dropDatabasesNamed, freshDatabase, migrateDatabase, withDatabase } from './fresh-database.mjs'
import { checkImage } from './check-image.mjs'
import { checkProcesses, ensureNode, NODE_VERSIONS } from './node-versions.mjs'
import { freePort } from './free-port.mjs'
import { reportRows } from './bench/bench-rows.mjs'
import { buildCliIfStale } from './build-cli.mjs'
import { buildForProduction, portalAnswers, startProductionStack, waitForStack } from './production-stack.mjs'
import { stopChild } from './stop-child.mjs'
import { TSX_NODE_ARGS } from './tsx-node-args.mjs'

const log = (...args) => console.log('[test]', ...args)
const DATA_DIR = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
const REPORTS = path.join(DATA_DIR, 'test-reports')
const E2E_PORT = process.env.TOOLROOM_E2E_PORT ?? '3999'
// Playwright workers, each in a world of its own: a copy of the seeded database and a production
// server on it (docs/design/testing.md, "End-to-end tests"). Two on 2 cores (BENCHMARKS.md, "Test suite").
const E2E_WORKERS = Number(process.env.TOOLROOM_E2E_WORKERS ?? 2)
if (!Number.isInteger(E2E_WORKERS) || E2E_WORKERS < 1)
  throw new Error(`TOOLROOM_E2E_WORKERS must be a whole number ≥ 1, not "${process.env.TOOLROOM_E2E_WORKERS}"`)
// Each e2e server's stdout and stderr, searched afterwards for Secret values (none may appear).
const serverLog = (world) => path.join(REPORTS, `e2e-server-${world}.log`)
const only = process.argv[2] // lint | unit | integration | e2e | node | image, for running one suite
// Anything after the suite goes to its runner: `npm test e2e approvals.spec`, `npm test unit naming`.
const extra = process.argv.slice(3)

fs.mkdirSync(REPORTS, { recursive: true })
process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1'
process.env.TOOLROOM_SECRET_KEY ??= randomBytes(32).toString('base64')

let embedded = null
const children = new Set()
const stacks = new Set()
let stopping = false
const totals = { passed: 0, failed: 0, skipped: 0 }
let failedSuites = []
/** How long each step took, printed at the end and kept in the reports (BENCHMARKS.md, "Test suite"). */
const phases = []
const runStarted = performance.now()

async function main() {
  if (only === 'lint') return await lint()
  // What does not need another step's result runs beside it: lint, type-check and the production
  // build (CPU) overlap the database's start and the Vitest suites (mostly waiting on PostgreSQL and
  // their own servers). The build is made once and used by every suite that runs the built app.
  const linted = only ? null : lint()
  const built = !only || ['e2e', 'node', 'image'].includes(only) ? productionBuild() : null
  // A failed build fails the suites that need it; until then nobody waits on it (no unhandled rejection).
  built?.catch(() => {})
  // The CLI's binary, which integration files and an e2e spec run: compiled here once if its sources
  // changed since the last compile (postinstall's, in a clean clone), not once per file that runs it.
  // A failure is left to those files, whose own check compiles it again and fails with tsc's findings.
  const cliBuilt =
    !only || only === 'integration' || only === 'e2e'
      ? timed('CLI build', () => buildCliIfStale()).catch((error) => log(`the CLI did not compile: ${error.message.split('\n')[0]}`))
      : null
  const adminUrl = await timed('database', async () => (process.env.DATABASE_URL ? withDatabase(process.env.DATABASE_URL, 'postgres') : await startEmbedded()))
  // Migrated once: every other database of the run is a copy of it (CREATE DATABASE … TEMPLATE).
  const template = await timed('migrations', async () => {
    const url = await freshDatabase(adminUrl, 'toolroom_test')
    await migrateDatabase(url)
    return url
  })
  const e2eDb = !only || only === 'e2e' ? await copyOfDatabase(template, 'toolroom_e2e') : null

  if (!only || only === 'unit' || only === 'integration') {
    await cliBuilt
    // The integration files that share a process and those that do not are two projects (vitest.config.mts).
    const projects = only === 'unit' ? ['--project', 'unit'] : only ? ['--project', 'integration', '--project', 'integration-isolated'] : []
    const report = path.join(REPORTS, 'vitest.json')
    fs.rmSync(report, { force: true })
    const code = await timed('vitest', () =>
      run('vitest', ['node_modules/vitest/vitest.mjs', 'run', ...projects, ...extra, '--reporter=default', '--reporter=json', `--outputFile=${report}`], {
        DATABASE_URL: template,
      }),
    )
    countVitest(report, code, 'vitest')
    // Each integration file copied the test database for itself (tests/integration/setup.ts).
    await dropDatabasesNamed(adminUrl, 'toolroom_test_p').catch((e) => console.error(`[test] could not drop the files' databases: ${e.message}`))
  }
  await linted

  if (!only || only === 'e2e') {
    // The servers run as production runs them: the compiled gateway (dist/) in front of Next.js.
    await timed('waiting for the build', () => built)
    await cliBuilt
    // The e2e world is the demo fleet without its history and traffic, so specs count on what they do themselves
    // (e2e/living-demo.spec.ts starts its own `npm start` to see the living demo). Seeded once, copied per worker.
    if ((await run('seed', ['dist/seed-demo.cjs'], { DATABASE_URL: e2eDb, TOOLROOM_DEMO_TRAFFIC: '0' })) !== 0)
      throw new Error('seeding the demo fleet for the end-to-end tests failed')
    const worlds = await timed('e2e servers', () => startWorlds(e2eDb))
    const report = path.join(REPORTS, 'playwright.json')
    fs.rmSync(report, { force: true })
    const code = await timed('playwright', () =>
      run('playwright', ['node_modules/@playwright/test/cli.js', 'test', ...extra], {
        E2E_WORLDS: JSON.stringify(worlds),
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      }),
    )
    countPlaywright(report, code)
    for (const world of worlds) {
      const leakCheck = await run('log-check', [...TSX_NODE_ARGS, 'scripts/check-log-for-secrets.ts', world.serverLog], { DATABASE_URL: world.databaseUrl })
      if (leakCheck === 0) totals.passed++
      else {
        totals.failed++
        failedSuites.push(`secret values in ${path.relative(process.cwd(), world.serverLog)}`)
      }
    }
  }

  // Side by side (each on its own database and free ports): the image check mostly waits on its
  // production-only install, while the other Node.js versions run the unit suite.
  await Promise.all([
    (!only || only === 'node') && timed('other Node.js versions', () => otherNodeVersions(template, built)),
    (!only || only === 'image') && timed('image check', () => imageCommands(adminUrl, built)),
  ])
}

/** Runs `step`, recording how long it took for the closing summary (BENCHMARKS.md, "Test suite"). */
async function timed(name, step) {
  const started = performance.now()
  try {
    return await step()
  } finally {
    phases.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10 })
  }
}

// `npm run lint` (ESLint, no warnings allowed), `npm run format:check` (Prettier) and `npm run
// typecheck` (tsc over the whole tree: tests, e2e, scripts and the CLI's sources too, which
// `next build` never reads), as package.json defines them: each counts as one test, and a finding
// fails it.
async function lint() {
  await timed('lint, format and type check', () =>
    Promise.all(
      ['lint', 'format:check', 'typecheck'].map(async (script) => {
        // Beside the database and Vitest: each writes to its own file, shown when it fails.
        const output = path.join(REPORTS, `${script.replace(':', '-')}.log`)
        const code = await run(script, ['run', '--silent', script], {}, 'npm', output)
        log(`${script}: ${code === 0 ? 'passed' : 'FAILED'}`)
        if (code === 0) totals.passed++
        else {
          process.stdout.write(fs.readFileSync(output, 'utf8'))
          totals.failed++
          failedSuites.push(script)
        }
      }),
    ),
  )
}

/**
 * The production build (scripts/production-stack.mjs): started once, shared by every suite that runs
 * the built app. Its output goes to a file, shown when it fails.
 */
function productionBuild() {
  return timed('production build', async () => {
    const file = path.join(REPORTS, 'build.log')
    const output = fs.openSync(file, 'w')
    try {
      // `npm run typecheck` checks the whole tree (a superset of what next build checks) in this run.
      await buildForProduction({ log, output, env: only ? {} : { TOOLROOM_BUILD_TYPECHECKED: '1' }, track })
    } catch (error) {
      process.stdout.write(fs.readFileSync(file, 'utf8'))
      throw new Error(`${error.message} (its output is above and in ${path.relative(process.cwd(), file)})`)
    } finally {
      fs.closeSync(output)
    }
  })
}

// The Dockerfile's commands from a production-only install in a clean directory, as the image runs
// them (scripts/check-image.mjs): no container engine runs on these machines.
async function imageCommands(adminUrl, built) {
  await built
  const db = await freshDatabase(adminUrl, 'toolroom_image')
  const failure = await checkImage({ databaseUrl: db, secretKey: process.env.TOOLROOM_SECRET_KEY })
  if (failure) console.error(failure)
  log(`image commands from a production-only install: ${failure ? 'FAILED' : 'passed'}`)
  if (failure) {
    totals.failed++
    failedSuites.push('image commands')
  } else totals.passed++
}

// The unit suite and a real start of web, gateway and worker on each other supported Node.js version
// (README, "Supported Node.js"); the binaries are fetched once into the data directory.
async function otherNodeVersions(template, built) {
  if (NODE_VERSIONS.length === 0) {
    log('other Node.js versions: none asked for (TOOLROOM_TEST_NODE_VERSIONS is empty)')
    totals.skipped++
    return
  }
  const db = await copyOfDatabase(template, 'toolroom_node_versions')
  const outcome = (version, name, ok) => {
    log(`Node.js ${version}: ${name} ${ok ? 'passed' : 'FAILED'}`)
    if (ok) totals.passed++
    else {
      totals.failed++
      failedSuites.push(`Node.js ${version}: ${name}`)
    }
  }
  const fetched = []
  for (const version of NODE_VERSIONS) {
    try {
      fetched.push({ version, node: ensureNode(version, path.join(DATA_DIR, 'node'), log) })
    } catch (error) {
      log(`Node.js ${version}: could not fetch it: ${error.message}`)
      outcome(version, 'fetch', false)
    }
  }
  // The versions' unit suites side by side: each is one Vitest worker (Vitest leaves a core free on
  // 2), CPU-bound, so one after the other they left a core idle (BENCHMARKS.md, "Test suite").
  const units = await Promise.all(
    fetched.map(({ version, node }) => {
      const report = path.join(REPORTS, `vitest-node-${version}.json`)
      return run(
        `unit tests on Node.js ${version}`,
        ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit', '--reporter=dot', '--reporter=json', `--outputFile=${report}`],
        {},
        node,
      )
    }),
  )
  fetched.forEach(({ version }, i) => outcome(version, 'unit tests', units[i] === 0))
  await built
  for (const { version, node } of fetched) {
    const failure = await checkProcesses(node, { DATABASE_URL: db })
    if (failure) console.error(failure)
    outcome(version, 'web, gateway and worker start', failure === null)
  }
}

async function startEmbedded() {
  embedded = await startEmbeddedPostgres({
    dataDir: path.join(DATA_DIR, 'pg17-test'),
    port: Number(process.env.TOOLROOM_TEST_PG_PORT ?? 55640),
    database: 'postgres',
    log,
  })
  return embedded.url
}

/** Runs a child to its end; its output goes to ours, or to the file `outputFile` (appended). */
function run(name, args, env, node = process.execPath, outputFile = null) {
  return new Promise((resolve) => {
    // Once stopping (Ctrl-C), the steps still under way start nothing new: they fail.
    if (stopping) return resolve(1)
    const output = outputFile ? fs.openSync(outputFile, 'a') : null
    const stdio = output === null ? 'inherit' : ['ignore', output, output]
    const child = spawn(node, args, { stdio, env: { ...process.env, ...env } })
    track(child)
    child.once('exit', (code) => {
      if (output !== null) fs.closeSync(output)
      if (code !== 0) log(`${name} exited with ${code}`)
      resolve(code ?? 1)
    })
  })
}

/**
 * One world per Playwright worker (e2e/support/worlds.ts): a copy of the seeded database and, as `npm
 * start` runs it (scripts/production-stack.mjs), the lean gateway front with Next.js behind it. The
 * first world's front is on the e2e port; every other port is a free one. Without the web preload,
 * which masks secret values in the log: the log is searched for them afterwards, and a value that
 * reaches it at all must be found.
 */
async function startWorlds(seeded) {
  // One copy at a time: CREATE DATABASE … TEMPLATE wants its template to itself.
  const databases = []
  for (let i = 0; i < E2E_WORKERS; i++) databases.push(await copyOfDatabase(seeded, `toolroom_e2e_${i}`))
  return Promise.all(databases.map((databaseUrl, i) => startServer(databaseUrl, i)))
}

async function startServer(databaseUrl, world) {
  if (stopping) throw new Error('stopped before the e2e servers started')
  const logFile = serverLog(world)
  const output = fs.openSync(logFile, 'w')
  log(`e2e server ${world} output: ${path.relative(process.cwd(), logFile)}`)
  // Every spec signs in through the sign-in page from 127.0.0.1, more often than the default limit
  // (10 per 5 minutes per address) allows; no spec tests the limit (integration tests do).
  const stack = await startProductionStack({
    env: { DATABASE_URL: databaseUrl, NODE_ENV: 'production', TOOLROOM_SIGNIN_ATTEMPTS: '1000' },
    port: world === 0 ? Number(E2E_PORT) : await freePort(),
    output,
    webPreload: false,
  })
  stacks.add(stack)
  // Several servers start at once on a busy machine: Next.js alone takes 10–20 s there.
  await waitForStack(stack, portalAnswers(stack), { timeoutMs: 120_000 }).catch((error) => {
    throw new Error(`e2e server ${world}: ${error.message} (its output: ${path.relative(process.cwd(), logFile)})`)
  })
  return { baseURL: stack.base, databaseUrl, serverLog: logFile }
}

function countVitest(report, code, suite) {
  if (!fs.existsSync(report)) {
    totals.failed++
    failedSuites.push(`${suite} (no report; exit ${code})`)
    return
  }
  const r = JSON.parse(fs.readFileSync(report, 'utf8'))
  totals.passed += r.numPassedTests
  totals.failed += r.numFailedTests
  totals.skipped += r.numPendingTests + r.numTodoTests
  // A file that failed to load has no tests to count but must still fail the run.
  const brokenFiles = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
  totals.failed += brokenFiles
  // Vitest can exit non-zero with every test passed (an unhandled error, a failing hook, a timeout
  // while closing): that is a failure too, counted once so the summary never reads "0 failed".
  if (code !== 0 && r.numFailedTests === 0 && brokenFiles === 0) totals.failed++
  if (code !== 0 || r.numFailedTests > 0 || brokenFiles > 0) failedSuites.push(suite)
}

function countPlaywright(report, code) {
  if (!fs.existsSync(report)) {
    totals.failed++
    failedSuites.push(`playwright (no report; exit ${code})`)
    return
  }
  const { stats } = JSON.parse(fs.readFileSync(report, 'utf8'))
  totals.passed += stats.expected + stats.flaky
  totals.failed += stats.unexpected
  totals.skipped += stats.skipped
  // A failure outside any test (global setup, a crashed worker) fails no test but must still count.
  if (code !== 0 && stats.unexpected === 0) totals.failed++
  if (code !== 0 || stats.unexpected > 0) failedSuites.push('playwright')
}

/** Every child is stopped with the run, however it ends. */
function track(child) {
  if (stopping) child.kill('SIGTERM')
  children.add(child)
  child.once('exit', () => children.delete(child))
}

async function stopAll() {
  stopping = true
  await Promise.all([...children].map((c) => stopChild(c, 5000)))
  await Promise.all([...stacks].map((stack) => stack.stop(5000)))
  await embedded?.stop()
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, async () => {
    await stopAll()
    process.exit(130)
  })

let exitCode = 0
try {
  await main()
} catch (error) {
  console.error('[test] error:', error?.message ?? error)
  totals.failed++
  failedSuites.push('harness')
}
await stopAll()
fs.writeFileSync(path.join(REPORTS, 'phases.json'), JSON.stringify(phases, null, 2))
log(`steps: ${phases.map((p) => `${p.name} ${p.seconds} s`).join('; ')}`)
// The whole suite is a benchmark too (issue 32's row: ≤ 10 minutes on the bench machine), when it ran
// whole: a run that failed early would read as fast. Its report is no test: a results file that
// cannot be written is said, and the run's outcome stands.
if (!only && failedSuites.length === 0)
  try {
    reportRows(
      'npm test',
      [
        { name: 'the whole run', value: Math.round((performance.now() - runStarted) / 1000), unit: 's', better: 'lower', target: 600 },
        ...phases.map((p) => ({ name: p.name, value: p.seconds, unit: 's', better: 'lower' })),
      ],
      { file: process.env.BENCH_RESULTS ?? path.join(DATA_DIR, 'bench-results.jsonl') },
    )
  } catch (error) {
    log(`the run's times were not kept: ${error.message}`)
  }
if (failedSuites.length > 0) {
  log(`failed: ${failedSuites.join(', ')}`)
  exitCode = 1
}
if (totals.passed === 0) exitCode = 1
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(exitCode)
