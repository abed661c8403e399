// `npm start`: compiled gateway, worker and scripts (dist/, rebuilt when the sources changed) → the
// configuration, checked (lib/config.ts, compiled as dist/config.cjs) → on a built tree, the web
// server and the lean gateway in front of it (which serves /mcp) start at once: neither reads the
// database before a request; so does the data step (dist/prepare-data.cjs), which loads its modules
// meanwhile → [embedded PostgreSQL when DATABASE_URL is unset] → the data step's migrations, admin
// token and demo fleet (embedded database only; on a second start only a check that they are written),
// beside the production build when the sources changed → ready once those are written and
// /api/health answers through the gateway → the web server's database client loaded (its health
// answers ask the pool alone), the demo's local endpoints on ports of their own, the discovery
// workers, and the demo's agents calling through the gateway (unless TOOLROOM_DEMO_TRAFFIC=0).
// What is started after ready does not compete for the cores with what ready waits for
// (BENCHMARKS.md, "Start and stop").
// Ctrl-C or SIGTERM stops the workers, then the web server, then the demo endpoints, then PostgreSQL,
// each after the one before has finished. `npm run dev` runs `next dev` instead.
import 'dotenv/config'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { serverBuildIsStale } from './build-server.mjs'
import { startEmbeddedPostgresInOwnGroup } from './embedded-postgres.mjs'
import { chooseDemoPorts } from './demo-ports.mjs'
import { embeddedDatabaseUrl } from './embedded-db-url.mjs'
import { chooseEmbeddedPgPort } from './embedded-pg-port.mjs'
import { ensureSecretKey, needsBuild, recordBuild } from './start-helpers.mjs'
import { createSupervisor } from './supervisor.mjs'
import { askOnce } from './wait-healthy.mjs'

const t0 = performance.now()
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`
const log = (...args) => console.log('[toolroom]', ...args)
process.env.NEXT_TELEMETRY_DISABLED = '1'

// Workers finish their jobs while the endpoints and the database those jobs use are still up.
const STOP = { workers: 1, web: 2, endpoints: 3 }

let embedded = null
const supervisor = createSupervisor({ log, onStop: async () => embedded?.stop() })

try {
  // The gateway, workers and scripts run compiled (dist/, `npm run build:server`), rebuilt when a source changed.
  if (serverBuildIsStale()) await supervisor.runOnce('build:server', ['scripts/build-server.mjs', '--if-stale'])
  // The configuration every process reads, checked here first: a value that breaks its rule stops
  // `npm start` with the variable and the rule, before anything is started.
  const settings = createRequire(import.meta.url)('../dist/config.cjs').loadConfigOrExit()
  const PORT = String(settings.PORT)
  const HOST = settings.HOST
  const DATA_DIR = path.resolve(settings.TOOLROOM_DATA_DIR)
  const localHost = HOST === '0.0.0.0' ? '127.0.0.1' : HOST
  // With TOOLROOM_METRICS_PORT set, each process serves its metrics on a port of its own: the web app on
  // that port, the gateway on the next, the workers on the ones after (lib/observability/metrics-server.ts);
  // with 0, each on any free port.
  const metricsBase = settings.TOOLROOM_METRICS_PORT
  const metricsPort = (offset) => (metricsBase === undefined ? {} : { TOOLROOM_METRICS_PORT: String(metricsBase === 0 ? 0 : metricsBase + offset) })

  // Everything every process reads from the environment is settled before the first one starts: the
  // embedded database's address (its port is this data directory's own, scripts/embedded-pg-port.mjs),
  // the secret key, and the demo's ports (scripts/demo-ports.mjs).
  const useEmbedded = !settings.DATABASE_URL
  const embeddedPort = useEmbedded ? await chooseEmbeddedPgPort(DATA_DIR, settings.TOOLROOM_EMBEDDED_PG_PORT, log) : null
  if (useEmbedded) process.env.DATABASE_URL = embeddedDatabaseUrl(embeddedPort)
  ensureSecretKey(DATA_DIR, { configured: settings.TOOLROOM_SECRET_KEY, shared: !useEmbedded, log })
  const demo = useEmbedded || settings.TOOLROOM_DEMO
  if (demo) process.env.TOOLROOM_DEMO_PORT = String(await chooseDemoPorts(DATA_DIR, settings.TOOLROOM_DEMO_PORT, log))

  // The lean gateway process fronts the port: it answers /mcp itself and passes everything else to
  // Next.js on an internal port (BENCHMARKS.md, "Gateway", says why). TOOLROOM_GATEWAY_FRONT=0 lets
  // Next.js serve the port, and /mcp, alone.
  let webOrigin = null
  const startWeb = () => {
    if (settings.TOOLROOM_DEV) {
      supervisor.keepRunning('web', ['node_modules/next/dist/bin/next', 'dev', '-p', PORT, '-H', HOST], { stopOrder: STOP.web, env: metricsPort(0) })
      return
    }
    const front = settings.TOOLROOM_GATEWAY_FRONT
    const webPort = front ? String(settings.TOOLROOM_WEB_INTERNAL_PORT ?? settings.PORT + 1) : PORT
    supervisor.keepRunning(
      'web',
      ['-r', './dist/web-preload.cjs', 'node_modules/next/dist/bin/next', 'start', '-p', webPort, '-H', front ? '127.0.0.1' : HOST],
      { stopOrder: STOP.web, env: metricsPort(0) },
    )
    // Without the front the web server binds HOST itself.
    webOrigin = `http://${front ? '127.0.0.1' : localHost}:${webPort}`
    if (front)
      supervisor.keepRunning('gateway', ['dist/gateway.cjs'], {
        stopOrder: STOP.web,
        env: { ...metricsPort(1), GATEWAY_PORT: PORT, TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${webPort}` },
      })
  }
  // On a built tree the servers load their modules while the database starts and the data is written.
  const building = settings.TOOLROOM_DEV ? null : needsBuild()
  if (!building) startWeb()

  // The data steps run while the web app builds (when it must): the web server reads them per
  // request, not at start. The migrations; the automation token (README, "Access"), created, replaced
  // or revoked to match the environment; the demo fleet. Started at once, the step loads its modules
  // while PostgreSQL starts, and begins when told that the database is up.
  let databaseUp
  const databaseStarted = new Promise((resolve) => (databaseUp = resolve))
  const preparing = supervisor.runOnce('prepare', ['dist/prepare-data.cjs', ...(demo ? ['--demo'] : [])], { tellWhen: databaseStarted })
  // A failure stops everything at once, not after a build it ran beside.
  preparing.catch((error) => {
    console.error('[toolroom] start failed:', error?.message ?? error)
    return supervisor.shutdown(1)
  })
  if (useEmbedded) {
    embedded = await startEmbeddedPostgresInOwnGroup({ dataDir: path.join(DATA_DIR, 'pg17'), port: embeddedPort, database: 'toolroom', log })
    log(`embedded PostgreSQL 17 on port ${embeddedPort} (${elapsed()})`)
  }
  databaseUp()
  if (building) {
    log('building the web app (first start, or the sources changed)…')
    await supervisor.runOnce('build', ['node_modules/next/dist/bin/next', 'build'])
    recordBuild(building)
    log(`build done (${elapsed()})`)
    startWeb()
  }
  // The first /api/health loads its route and the database client in the web server: asked of the web
  // server itself while the gateway is still loading and the data is still being written, so that
  // ready follows them by as little as possible. Ready is all three: the data written (nothing is
  // announced before the migrations and the seed are done) and the health answered through the gateway.
  const webHealthy = webOrigin ? supervisor.waitHealthy(`${webOrigin}/api/health`) : null
  await Promise.all([preparing, webHealthy])
  await supervisor.waitHealthy(`http://${localHost}:${PORT}/api/health`)
  log(`ready at http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT} (${elapsed()}); Ctrl-C stops everything`)
  // The web server's health answers asked the pool alone; the deep check loads its database client
  // now, while nobody waits, not in a person's first request (lib/health/answer-health.ts).
  if (webOrigin) void askOnce(`${webOrigin}/api/health?deep=1`)
  if (fs.existsSync(path.join(DATA_DIR, 'pg17')) && embedded)
    log(`data: ${path.relative(process.cwd(), DATA_DIR)}/ (delete it to start over with a fresh demo fleet)`)

  // The demo fleet's local MCP servers and agent listener, which the workers discover for real.
  if (demo) supervisor.keepRunning('demo endpoints', ['scripts/demo-endpoints.mjs'], { stopOrder: STOP.endpoints })
  // Workers start on the fleet as seeded: their first sweep discovers all of it.
  for (let i = 0; i < settings.TOOLROOM_WORKERS; i++)
    supervisor.keepRunning(`worker ${i + 1}`, ['dist/worker.cjs'], { stopOrder: STOP.workers, env: metricsPort(2 + i) })
  // The demo's agents at work, through the gateway as any agent reaches it (lib/seed/demo-traffic.ts).
  // Not under `next dev`, which reports every MCP stream a client closes as an uncaught error.
  if (demo && settings.TOOLROOM_DEMO_TRAFFIC && !settings.TOOLROOM_DEV)
    supervisor.keepRunning('demo traffic', ['dist/demo-traffic.cjs'], { stopOrder: STOP.workers, env: { DEMO_GATEWAY_URL: `http://${localHost}:${PORT}` } })
} catch (error) {
  console.error('[toolroom] start failed:', error?.message ?? error)
  await supervisor.shutdown(1)
}
