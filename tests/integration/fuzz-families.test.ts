// The fuzzer's scenario families (scripts/fuzz/families.mjs) against a whole origin: the gateway front
// and the app's routes over real HTTP, a real database, and the fuzzer's own hostile upstreams (an
// echoing REST server, a slow-drip one, an MCP server listing a 1,500-deep inputSchema). Discovery of
// that server runs as the worker's job runs it. Every oracle must hold: no row from an anonymous
// request, no internal origin, no form of the injected secret, no crash text or internal -32603, the
// deep tool refused and its neighbour kept, a call within its timeoutMs. The seed varies per run
// (printed; FUZZ_SEED replays one).
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { familyFindings, formatFamilies, prepareFamilies, runFamilies, startHostileUpstreams } from '@/scripts/fuzz/families.mjs'
import { startWebApp, type WebApp } from '../support/web-app'
import { resetDatabase, testAdminToken } from './helpers'

// Characters that every encoding changes: `/`, `+`, `=` (base64 and URL), `"` and `\` (JSON).
const SECRET = `fz/${randomBytes(12).toString('hex')}+"q\\z=`
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))

let app: WebApp
let upstreams: Awaited<ReturnType<typeof startHostileUpstreams>>
let world: Awaited<ReturnType<typeof prepareFamilies>>

beforeAll(async () => {
  console.log(`fuzz families: seed ${SEED} (replay with FUZZ_SEED=${SEED})`)
  await resetDatabase()
  upstreams = await startHostileUpstreams()
  app = await startWebApp()
  world = await prepareFamilies({
    baseUrl: app.url,
    adminToken: await testAdminToken(),
    upstreamUrl: upstreams.url,
    secret: SECRET,
    discover: async (id: string) => void (await runMcpDiscovery({ id, trigger: 'manual' })),
  })
}, 60_000)

afterAll(async () => {
  await closeMcpSessions()
  await app?.close()
  await upstreams?.close()
})

describe.each(['host-state', 'echo', 'deep-schema', 'drip'])('fuzz family %s', (family) => {
  it('holds every oracle', async () => {
    const report = await runFamilies(world, { seed: SEED, count: 8, databaseUrl: process.env.DATABASE_URL, only: [family] })
    expect(report[family].cases, formatFamilies(report)).toBeGreaterThan(0)
    expect(report[family].notes ?? [], formatFamilies(report)).toEqual([])
    expect(familyFindings(report), `seed ${SEED}\n${formatFamilies(report)}`).toEqual([])
  }, 60_000)
})
