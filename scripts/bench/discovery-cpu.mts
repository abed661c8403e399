// CPU cost of one discovery, measured in this process (process.cpuUsage), step by step: the MCP
// introspection alone, the image introspection alone, and each full recorded run (introspection +
// bookkeeping in the database). Wall-clock figures suffer on a shared machine; CPU per job does not
// (much), so this is the figure to judge a change by. The endpoints run in a child process; every
// step of every round talks to endpoints it has not talked to before (a new connection each), as the
// benchmark's workers do.
// DATABASE_URL=<a migrated database> npm run bench:discovery-cpu -- [servers] [rounds]
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { prisma } from '@/lib/db'
import { introspectImage } from '@/lib/discovery/introspect-image'
import { introspectMcpServer } from '@/lib/discovery/introspect-mcp-server'
import { discoveryFetch } from '@/lib/outbound/outbound-clients'
import { runImageDiscovery } from '@/lib/discovery/run-image-discovery'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'

const SERVERS = Number(process.argv[2] ?? 100)
const ROUNDS = Number(process.argv[3] ?? 3)
const CONCURRENCY = 8
const STEPS = 6
const NAMESPACE = 'bench-cpu'

const child = spawn(process.execPath, ['scripts/bench/discovery-endpoints.mjs', String(SERVERS * STEPS * (ROUNDS + 1))], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const ports: { mcp: number[]; agents: number[] } = await new Promise((resolve, reject) => {
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
    if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))))
  })
  child.once('exit', (code) => reject(new Error(`endpoints exited ${code}`)))
})

await prisma.languageTool.deleteMany({ where: { namespace: NAMESPACE } })
await prisma.agent.deleteMany({ where: { namespace: NAMESPACE } })
const serverIds = ports.mcp.map(() => randomUUID())
const agentIds = ports.agents.map(() => randomUUID())
await prisma.languageTool.createMany({
  data: ports.mcp.map((port, i) => ({
    id: serverIds[i],
    apiVersion: 'toolroom.dev/v1alpha1',
    namespace: NAMESPACE,
    name: `mcp-${i}`,
    spec: { endpoint: `http://127.0.0.1:${port}/mcp`, port: 8080, deploymentMode: 'service', transport: 'streamable-http' },
  })),
})
await prisma.agent.createMany({
  data: ports.agents.map((port, i) => ({
    id: agentIds[i],
    apiVersion: 'toolroom.dev/v1alpha1',
    namespace: NAMESPACE,
    name: `agent-${i}`,
    spec: { image: `registry.local/agent-${i}@sha256:${i.toString(16).padStart(64, '0')}`, endpoint: `http://127.0.0.1:${port}` },
  })),
})

/** CPU milliseconds per item of `work` over `items`, CONCURRENCY at a time. */
async function cpuPerItem<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const queue = [...items]
  const before = process.cpuUsage()
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
    }),
  )
  const used = process.cpuUsage(before)
  return { cpu: (used.user + used.system) / 1000 / items.length, wall: (performance.now() - t0) / items.length }
}

const fetch = discoveryFetch()
// Fresh endpoints (and rows) for every step of every round: slice n of SERVERS each.
let slice = 0
const next =
  <T,>(xs: T[]) =>
  () =>
    xs.slice(slice * SERVERS, ++slice * SERVERS)
const fresh = { mcp: next(ports.mcp), agents: next(ports.agents), servers: next(serverIds), agentRows: next(agentIds) }
const steps: Record<string, () => Promise<{ cpu: number; wall: number }>> = {
  'MCP introspection (with compliance probes)': () =>
    cpuPerItem(fresh.mcp(), (p) => introspectMcpServer({ endpoint: `http://127.0.0.1:${p}/mcp`, transport: 'streamable-http' }, { fetch })),
  // A rediscovery of a 2025-era server: the transport of its last run tried first (no 2026-07-28 attempt).
  'MCP introspection (transport remembered)': () =>
    cpuPerItem(fresh.mcp(), (p) => {
      const endpoint = `http://127.0.0.1:${p}/mcp`
      return introspectMcpServer({ endpoint, transport: 'streamable-http', remembered: { transport: 'streamable-http', url: endpoint } }, { fetch })
    }),
  'MCP introspection (no probes)': () =>
    cpuPerItem(fresh.mcp(), (p) =>
      introspectMcpServer({ endpoint: `http://127.0.0.1:${p}/mcp`, transport: 'streamable-http' }, { fetch, probeCompliance: false }),
    ),
  'image introspection': () => cpuPerItem(fresh.agents(), (p) => introspectImage(`http://127.0.0.1:${p}`, { fetch, connectorSlugs: new Set() })),
  'MCP run, recorded': () =>
    cpuPerItem(fresh.servers(), async (id) => {
      if ((await runMcpDiscovery({ id, trigger: 'manual' })).status !== 'succeeded') throw new Error(`MCP run of ${id} failed`)
    }),
  'image run, recorded': () =>
    cpuPerItem(fresh.agentRows(), async (id) => {
      if ((await runImageDiscovery({ kind: 'Agent', id, trigger: 'manual' })).status !== 'succeeded') throw new Error(`image run of ${id} failed`)
    }),
}

const results: Record<string, Array<{ cpu: number; wall: number }>> = {}
for (const name of Object.keys(steps)) await steps[name]() // warm-up: JIT, connections, caches
for (let round = 0; round < ROUNDS; round++) for (const [name, step] of Object.entries(steps)) (results[name] ??= []).push(await step())

console.log(`${SERVERS} servers and listeners, ${CONCURRENCY} at a time, ${ROUNDS} rounds (median; min–max of CPU)`)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
for (const [name, rs] of Object.entries(results)) {
  const cpus = rs.map((r) => r.cpu)
  console.log(
    `${name.padEnd(44)} ${median(cpus).toFixed(2).padStart(6)} ms CPU (${Math.min(...cpus).toFixed(2)}–${Math.max(...cpus).toFixed(2)})   ${median(
      rs.map((r) => r.wall),
    )
      .toFixed(2)
      .padStart(6)} ms wall`,
  )
}

await prisma.languageTool.deleteMany({ where: { namespace: NAMESPACE } })
await prisma.agent.deleteMany({ where: { namespace: NAMESPACE } })
await prisma.discoveryRun.deleteMany({ where: { namespace: NAMESPACE } })
await prisma.surfaceChange.deleteMany({ where: { namespace: NAMESPACE } })
child.kill('SIGTERM')
await prisma.$disconnect()
process.exit(0)
