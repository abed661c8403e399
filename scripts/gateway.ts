// Entry of the lean gateway process: `node --import tsx scripts/gateway.ts`.
// GATEWAY_PORT (default 3000), HOST, and TOOLROOM_GATEWAY_UPSTREAM: the Next.js origin to pass every
// other path to (unset: this process serves /mcp only, as in tests and benchmarks).
import { createGatewayServer } from '@/lib/gateway/server'

const port = Number(process.env.GATEWAY_PORT ?? process.env.PORT ?? 3000) // 0: any free port (printed)
const host = process.env.HOST ?? '127.0.0.1'
const server = createGatewayServer({ port, host, upstream: process.env.TOOLROOM_GATEWAY_UPSTREAM || undefined })
server.listen(port, host, () => console.log(`[gateway] listening on http://${host}:${(server.address() as { port: number }).port}/mcp`))
const stop = () => {
  server.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 2000).unref()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
