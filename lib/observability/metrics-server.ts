// Each process's own small HTTP server for Prometheus and for health probes, on a port of its own
// (TOOLROOM_METRICS_PORT; unset: none), never the public one: metrics name tools and namespaces, so
// they are for the cluster's monitoring, not for agents or people. It binds TOOLROOM_METRICS_HOST
// (127.0.0.1 unless told: a Kubernetes pod sets 0.0.0.0 so Prometheus and the kubelet reach it), and
// with TOOLROOM_METRICS_TOKEN set /metrics also wants `Authorization: Bearer <token>`.
//   GET /metrics  the registry in Prometheus text format
//   GET /livez    200 while the process serves (the event loop turns)
//   GET /readyz   200 when the process can do its work (its `ready` check), else 503 with the reason
import 'server-only'
import { createHash, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import { type Config, config } from '@/lib/config'
import { initMetrics, type ProcessRole } from './metrics'

type MetricsConfig = Pick<Config, 'TOOLROOM_METRICS_PORT' | 'TOOLROOM_METRICS_HOST' | 'TOOLROOM_METRICS_TOKEN'>

export interface MetricsServerOptions {
  role: ProcessRole
  /** Readiness: resolves with null when ready, or with why not. */
  ready?: () => Promise<string | null>
  port?: number
  host?: string
  token?: string
}

/** Where this process serves its metrics; null when TOOLROOM_METRICS_PORT is unset. */
export function metricsServerSettings(from: MetricsConfig = config()): { port: number; host: string; token?: string } | null {
  if (from.TOOLROOM_METRICS_PORT === undefined) return null
  return { port: from.TOOLROOM_METRICS_PORT, host: from.TOOLROOM_METRICS_HOST, token: from.TOOLROOM_METRICS_TOKEN }
}

const digest = (s: string) => createHash('sha256').update(s).digest()

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1]
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

const READY_TIMEOUT_MS = 5_000

export function createMetricsServer(options: MetricsServerOptions): http.Server {
  const registry = initMetrics(options.role)
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra }).end(req.method === 'HEAD' ? undefined : body)
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'only GET\n', undefined, { allow: 'GET, HEAD' })
    try {
      if (path === '/livez') return send(200, 'ok\n')
      if (path === '/readyz') {
        let timer: NodeJS.Timeout | undefined
        const why = options.ready
          ? await Promise.race([
              options.ready(),
              new Promise<string>((r) => (timer = setTimeout(() => r(`not ready within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS))),
            ]).finally(() => clearTimeout(timer))
          : null
        return why === null ? send(200, 'ok\n') : send(503, `${why}\n`)
      }
      if (path === '/metrics') {
        if (!authorized(req.headers.authorization, options.token))
          return send(401, 'send Authorization: Bearer <TOOLROOM_METRICS_TOKEN>\n', undefined, { 'www-authenticate': 'Bearer realm="toolroom-metrics"' })
        return send(200, await registry.metrics(), registry.contentType)
      }
      send(404, 'not found: /metrics, /livez, /readyz\n')
    } catch (e) {
      send(500, `${(e as Error).message}\n`)
    }
  })
  // Probes and scrapes are small and quick: nothing here needs long-lived connections.
  server.headersTimeout = 10_000
  server.requestTimeout = 15_000
  server.keepAliveTimeout = 5_000
  return server
}

/**
 * Starts the metrics server when TOOLROOM_METRICS_PORT is set (the process's metrics are collected
 * either way). Resolves with its port, or null when there is none.
 */
export async function startMetricsServer(role: ProcessRole, ready?: () => Promise<string | null>): Promise<number | null> {
  initMetrics(role)
  const settings = metricsServerSettings()
  if (!settings) return null
  const server = createMetricsServer({ role, ready, ...settings })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(settings.port, settings.host, () => resolve())
  })
  server.unref()
  return (server.address() as { port: number }).port
}
