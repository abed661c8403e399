// `npm start`: [embedded PostgreSQL when DATABASE_URL is unset] → compiled gateway, worker and
// scripts (dist/, rebuilt when the sources changed) → migrations → demo fleet and its
// local endpoints (embedded database only) → production build if the sources changed → web server
// (behind the lean gateway process, which serves /mcp) and discovery workers → ready.
// Ctrl-C or SIGTERM stops the workers, then the web server, then the demo endpoints, then PostgreSQL,
// each after the one before has finished. `npm run dev` runs `next dev` instead.
import 'dotenv/config'
import fs from 'node:fs'
import path from 'node:path'
import { EMBEDDED_PG_PORT } from './embedded-db-url.mjs'
import { startEmbeddedPostgresInOwnGroup } from './embedded-postgres.mjs'
import { ensureSecretKey, needsBuild, recordBuild } from './start-helpers.mjs'
import { createSupervisor } from './supervisor.mjs'

const t0 = performance.now()
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`
const log = (...args) => console.log('[toolroom]', ...args)
const PORT = process.env.PORT ?? '3000'
const HOST = process.env.HOST ?? '127.0.0.1'
const DEV = process.env.TOOLROOM_DEV === '1'
const DATA_DIR = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
process.env.NEXT_TELEMETRY_DISABLED = '1'

// Workers finish their jobs while the endpoints and the database those jobs use are still up.
const STOP = { workers: 1, web: 2, endpoints: 3 }

// With TOOLROOM_METRICS_PORT set, each process serves its metrics on a port of its own: the web app on
// that port, the gateway on the next, the workers on the ones after (lib/observability/metrics-server.ts).
const METRICS_BASE = process.env.TOOLROOM_METRICS_PORT ? Number(process.env.TOOLROOM_METRICS_PORT) : null
const metricsPort = (offset) => (METRICS_BASE === null ? {} : { TOOLROOM_METRICS_PORT: String(METRICS_BASE + offset) })

let embedded = null
const supervisor = createSupervisor({ log, onStop: async () => embedded?.stop() })

try {
  const useEmbedded = !process.env.DATABASE_URL
  if (useEmbedded) {
    embedded = await startEmbeddedPostgresInOwnGroup({ dataDir: path.join(DATA_DIR, 'pg17'), port: EMBEDDED_PG_PORT, database: 'toolroom', log })
    process.env.DATABASE_URL = embedded.url
    log(`embedded PostgreSQL 17 on port ${EMBEDDED_PG_PORT} (${elapsed()})`)
  }
  ensureSecretKey(DATA_DIR, { shared: !useEmbedded, log })

  // The gateway, workers and scripts run compiled (dist/, `npm run build:server`), rebuilt when a source changed.
  await supervisor.runOnce('build:server', ['scripts/build-server.mjs', '--if-stale'])
  await supervisor.runOnce('migrate', ['-r', './scripts/unref-timers.cjs', 'node_modules/prisma-migrate/build/index.js', 'migrate', 'deploy', '--config', 'prisma.migrate.config.ts'], { quiet: true })
  log(`migrations applied (${elapsed()})`)
  // The automation token (README, "Access"): created, replaced or revoked to match the environment.
  await supervisor.runOnce('admin token', ['dist/ensure-admin-token.cjs'])

  const demo = useEmbedded || process.env.TOOLROOM_DEMO === '1'
  if (demo) {
    await supervisor.runOnce('seed', ['dist/seed-demo.cjs'])
    // The demo fleet's local MCP servers and agent listener, which the workers discover for real.
    supervisor.keepRunning('demo endpoints', ['scripts/demo-endpoints.mjs'], { stopOrder: STOP.endpoints })
  }

  if (DEV) {
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
    const front = process.env.TOOLROOM_GATEWAY_FRONT !== '0'
    const webPort = front ? (process.env.TOOLROOM_WEB_INTERNAL_PORT ?? String(Number(PORT) + 1)) : PORT
    supervisor.keepRunning('web', ['-r', './dist/web-preload.cjs', 'node_modules/next/dist/bin/next', 'start', '-p', webPort, '-H', front ? '127.0.0.1' : HOST], { stopOrder: STOP.web, env: metricsPort(0) })
    if (front) {
      Object.assign(process.env, { GATEWAY_PORT: PORT, TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${webPort}` })
      supervisor.keepRunning('gateway', ['dist/gateway.cjs'], { stopOrder: STOP.web, env: metricsPort(1) })
    }
  }

  const workers = Number(process.env.TOOLROOM_WORKERS ?? 1)
  for (let i = 0; i < workers; i++) supervisor.keepRunning(`worker ${i + 1}`, ['dist/worker.cjs'], { stopOrder: STOP.workers, env: metricsPort(2 + i) })

  await supervisor.waitHealthy(`http://${HOST === '0.0.0.0' ? '127.0.0.1' : HOST}:${PORT}/api/health`)
  log(`ready at http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT} (${elapsed()}); Ctrl-C stops everything`)
  if (fs.existsSync(path.join(DATA_DIR, 'pg17')) && embedded) log(`data: ${path.relative(process.cwd(), DATA_DIR)}/ (delete it to start over with a fresh demo fleet)`)
} catch (error) {
  console.error('[toolroom] start failed:', error?.message ?? error)
  await supervisor.shutdown(1)
}
