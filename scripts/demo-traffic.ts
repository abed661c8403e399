// Run by `npm start` once Toolroom is up, unless TOOLROOM_DEMO_TRAFFIC=0: the demo fleet's agents
// keep calling through the gateway at DEMO_GATEWAY_URL (lib/seed/demo-traffic.ts), one round every
// few seconds, until stopped. A demo that cannot start its traffic says so and idles: the rest of
// Toolroom does not depend on it, and the supervisor stops everything when a service exits.
import '@/lib/check-config'
import { prisma } from '@/lib/db'
import { connectDemoTraffic, type DemoTraffic } from '@/lib/seed/demo-traffic'

const ROUND_MS = 4_000
const log = (...a: unknown[]) => console.log('[demo traffic]', ...a)

let traffic: DemoTraffic | null = null
let stopping = false
/** The round in progress: a stop lets its calls finish, so no request is cut off mid-way (the web server would log each as an error). */
let round: Promise<unknown> = Promise.resolve()
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    stopping = true
    await Promise.race([round, new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
    await traffic?.stop()
    await prisma.$disconnect().catch(() => {})
    process.exit(0)
  })

async function main() {
  traffic = await connectDemoTraffic(process.env.DEMO_GATEWAY_URL ?? 'http://127.0.0.1:3000')
  log(`${traffic.callers.length} agents calling through the gateway every ${ROUND_MS / 1000} s (TOOLROOM_DEMO_TRAFFIC=0 turns this off)`)
  while (!stopping) {
    // A round that fails (the gateway restarting) is skipped; the next one tries again.
    round = traffic.tick().catch((e: Error) => log('round skipped:', e.message))
    await round
    await new Promise((resolve) => setTimeout(resolve, ROUND_MS))
  }
}

main().catch((e: Error) => {
  log(`not running: ${e.message}`)
  // Idle until stopped with the rest.
  setInterval(() => {}, 1 << 30)
})
