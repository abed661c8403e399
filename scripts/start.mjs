// `npm start`: compiled gateway, worker and scripts (dist/, rebuilt when the sources changed) → the
// configuration, checked (lib/config.ts, compiled as dist/config.cjs) → [embedded PostgreSQL when
// DATABASE_URL is unset] → migrations → the admin token and the demo fleet (embedded database only),
// written while the production build (if the sources changed) and the web server (behind the lean
// gateway process, which serves /mcp) start → the demo's local endpoints on ports of their own and
// the discovery workers → ready → the demo's agents calling through the gateway (unless TOOLROOM_DEMO_TRAFFIC=0).
// Ctrl-C or SIGTERM stops the workers, then the web server, then the demo endpoints, then PostgreSQL,
// each after the one before has finished. `npm run dev` runs `next dev` instead.
import 'dotenv/config'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { startEmbeddedPostgresInOwnGroup } from './embedded-postgres.mjs'
import { chooseDemoPorts } from './demo-ports.mjs'
import { chooseEmbeddedPgPort } from './embedded-pg-port.mjs'
import { ensureSecretKey, needsBuild, recordBuild } from './start-helpers.mjs'
import { createSupervisor } from './supervisor.mjs'

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
  await supervisor.runOnce('build:server', ['scripts/build-server.mjs', '--if-stale'])
  // The configuration every process reads, checked here first: a value that breaks its rule stops
  // `npm start` with the variable and the rule, before anything is started.
  const settings = createRequire(import.meta.url)('../dist/config.cjs').loadConfigOrExit()
  const PORT = String(settings.PORT)
  const HOST = settings.HOST
  const DATA_DIR = path.resolve(settings.TOOLROOM_DATA_DIR)
  // With TOOLROOM_METRICS_PORT set, each process serves its metrics on a port of its own: the web app on
  // that port, the gateway on the next, the workers on the ones after (lib/observability/metrics-server.ts);
  // with 0, each on any free port.
  const metricsBase = settings.TOOLROOM_METRICS_PORT
  const metricsPort = (offset) => (metricsBase === undefined ? {} : { TOOLROOM_METRICS_PORT: String(metricsBase === 0 ? 0 : metricsBase + offset) })

  const useEmbedded = !settings.DATABASE_URL
  if (useEmbedded) {
    // A port of this data directory's own (scripts/embedded-pg-port.mjs): a second checkout beside this one gets another.
    const port = await chooseEmbeddedPgPort(DATA_DIR, settings.TOOLROOM_EMBEDDED_PG_PORT, log)
    embedded = await startEmbeddedPostgresInOwnGroup({ dataDir: path.join(DATA_DIR, 'pg17'), port, database: 'toolroom', log })
    process.env.DATABASE_URL = embedded.url
    log(`embedded PostgreSQL 17 on port ${port} (${elapsed()})`)
  }
  ensureSecretKey(DATA_DIR, { configured: settings.TOOLROOM_SECRET_KEY, shared: !useEmbedded, log })

  await supervisor.runOnce('migrate', ['dist/migrate.cjs'], { quiet: true })
  log(`migrations applied (${elapsed()})`)

  const demo = useEmbedded || settings.TOOLROOM_DEMO
  // Ports of this data directory's own (scripts/demo-ports.mjs): a second checkout beside this one gets
  // others. Chosen before any process starts, since every one of them reads it.
  if (demo) process.env.TOOLROOM_DEMO_PORT = String(await chooseDemoPorts(DATA_DIR, settings.TOOLROOM_DEMO_PORT, log))
  // The steps that write data run while the web server builds or starts (it reads them per request,
  // not at start): the automation token (README, "Access"), created, replaced or revoked to match the
  // environment; the demo fleet.
  const preparing = Promise.all([
    supervisor.runOnce('admin token', ['dist/ensure-admin-token.cjs']),
    demo ? supervisor.runOnce('seed', ['dist/seed-demo.cjs']) : null,
  ])
  // A failure stops everything at once, not after a build it ran beside.
  preparing.catch((error) => {
    console.error('[toolroom] start failed:', error?.message ?? error)
    return supervisor.shutdown(1)
  })

  if (settings.TOOLROOM_DEV) {
    supervisor.keepRunning('web', ['node_modules/next/dist/bin/next', 'dev', '-p', PORT, '-H', HOST], { stopOrder: STOP.web, env: metricsPort(0) })
  } else {
    if (needsBuild()) {
      log('building the web app (first start, or the sources changed)…')
      await supervisor.runOnce('build', ['node_modules/next/dist/bin/next', 'build'])
      recordBuild()
      log(`build done (${elapsed()})`)
    }
    // The lean gateway process fronts the port: it answers /mcp itself and passes everything else to
    // Next.js on an internal port (BENCHMARKS.md, "Gateway", says why). TOOLROOM_GATEWAY_FRONT=0 lets
    // Next.js serve the port, and /mcp, alone.
    const front = settings.TOOLROOM_GATEWAY_FRONT
    const webPort = front ? String(settings.TOOLROOM_WEB_INTERNAL_PORT ?? settings.PORT + 1) : PORT
    supervisor.keepRunning(
      'web',
      ['-r', './dist/web-preload.cjs', 'node_modules/next/dist/bin/next', 'start', '-p', webPort, '-H', front ? '127.0.0.1' : HOST],
      { stopOrder: STOP.web, env: metricsPort(0) },
    )
    if (front) {
      Object.assign(process.env, { GATEWAY_PORT: PORT, TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${webPort}` })
      supervisor.keepRunning('gateway', ['dist/gateway.cjs'], { stopOrder: STOP.web, env: metricsPort(1) })
    }
  }

  await preparing
  // The demo fleet's local MCP servers and agent listener, which the workers discover for real.
  if (demo) supervisor.keepRunning('demo endpoints', ['scripts/demo-endpoints.mjs'], { stopOrder: STOP.endpoints })
  // Workers start on the fleet as seeded: their first sweep discovers all of it.
  for (let i = 0; i < settings.TOOLROOM_WORKERS; i++)
    supervisor.keepRunning(`worker ${i + 1}`, ['dist/worker.cjs'], { stopOrder: STOP.workers, env: metricsPort(2 + i) })

  await supervisor.waitHealthy(`http://${HOST === '0.0.0.0' ? '127.0.0.1' : HOST}:${PORT}/api/health`)
  // The demo's agents at work, through the gateway as any agent reaches it (lib/seed/demo-traffic.ts).
  // Not under `next dev`, which reports every MCP stream a client closes as an uncaught error.
  if (demo && settings.TOOLROOM_DEMO_TRAFFIC && !settings.TOOLROOM_DEV)
    supervisor.keepRunning('demo traffic', ['dist/demo-traffic.cjs'], {
      stopOrder: STOP.workers,
      env: { DEMO_GATEWAY_URL: `http://${HOST === '0.0.0.0' ? '127.0.0.1' : HOST}:${PORT}` },
    })
  log(`ready at http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT} (${elapsed()}); Ctrl-C stops everything`)
  if (fs.existsSync(path.join(DATA_DIR, 'pg17')) && embedded)
    log(`data: ${path.relative(process.cwd(), DATA_DIR)}/ (delete it to start over with a fresh demo fleet)`)
} catch (error) {
  console.error('[toolroom] start failed:', error?.message ?? error)
  await supervisor.shutdown(1)
}
