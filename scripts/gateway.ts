// Entry of the lean gateway process: `node dist/gateway.cjs` (compiled by `npm run build:server`).
// GATEWAY_PORT (default PORT), HOST, and TOOLROOM_GATEWAY_UPSTREAM: the Next.js origin to pass every
// other path to (unset: this process serves /mcp only, as in tests and benchmarks). Metrics and
// health probes are on TOOLROOM_METRICS_PORT when set (lib/observability/metrics-server.ts), traces go
// to OTEL_EXPORTER_OTLP_ENDPOINT when set, call logs to OTLP with TOOLROOM_CALL_EXPORT=otlp.
import '@/lib/check-config'
import { flushCallLogs, nameCallLogProcess } from '@/lib/call-log/send-call-logs'
import { config } from '@/lib/config'
import { createGatewayServer, loadMcpPipeline } from '@/lib/gateway/server'
import { closeServer } from '@/lib/http/close-server'
import { bridgeConsoleToLogger, logger, setLogRole } from '@/lib/observability/logger'
import { startMetricsServer } from '@/lib/observability/metrics-server'
import { startTracing, stopTracing } from '@/lib/observability/tracing'
import { installLogMasking } from '@/lib/secrets/mask-secret-values'

async function main() {
  installLogMasking()
  setLogRole('gateway')
  bridgeConsoleToLogger()
  const log = logger()
  const tracing = await startTracing('gateway')
  nameCallLogProcess('gateway')
  const { GATEWAY_PORT, PORT, HOST: host, TOOLROOM_GATEWAY_UPSTREAM: upstream } = config()
  const port = GATEWAY_PORT ?? PORT // 0: any free port (printed)
  const server = createGatewayServer({ port, host, upstream })
  // Ready when the MCP pipeline is loaded (lib/gateway/server.ts: it is not at start, so that the front
  // answers sooner) and the database answers: a gateway without it can authenticate no agent.
  const metricsPort = await startMetricsServer('gateway', async () => {
    await loadMcpPipeline()
    const { checkHealth } = await import('@/lib/health/check-health')
    const health = await checkHealth()
    return health.status === 'ok' ? null : `database: ${health.database}`
  })
  server.listen(port, host, () => {
    const address = `http://${host}:${(server.address() as { port: number }).port}/mcp`
    log.info({ metricsPort, tracing }, `listening on ${address}`)
  })
  const stop = () => {
    void closeServer(server)
      .then(() => Promise.all([stopTracing(), flushCallLogs()]))
      .finally(() => process.exit(0))
    setTimeout(() => process.exit(0), 2000).unref()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((e) => {
  console.error('[gateway] failed to start:', e)
  process.exit(1)
})
