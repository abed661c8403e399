// Next.js calls register() once when the server starts: the configuration is checked first (a value
// that breaks its rule stops the server, lib/config.ts), and from then on secret values this process
// sees are masked in everything it writes to its logs (JSON lines off a terminal,
// lib/observability/logger.ts), spans go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set, and with
// TOOLROOM_METRICS_PORT set the process serves /metrics, /livez and /readyz on that port (not on the
// public one: lib/observability/metrics-server.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { loadConfigOrExit } = await import('@/lib/config')
    loadConfigOrExit()
    const { installLogMasking } = await import('@/lib/secrets/mask-secret-values')
    installLogMasking()
    const { bridgeConsoleToLogger, setLogRole } = await import('@/lib/observability/logger')
    setLogRole('web')
    bridgeConsoleToLogger()
    const { startTracing } = await import('@/lib/observability/tracing')
    await startTracing('web')
    const { startMetricsServer } = await import('@/lib/observability/metrics-server')
    const { checkHealth } = await import('@/lib/health/check-health')
    await startMetricsServer('web', async () => {
      const health = await checkHealth()
      return health.status === 'ok' ? null : `database: ${health.database}`
    })
  }
}
