// Everyone's answers after a change that reaches everyone: the registry is announced changed (as a
// platform Tool or a SideEffectPolicy would), then every agent's `GET /api/v1/agents/{id}` answer is
// computed through the web process's own path (subjectAnswer: read, resolve, statistics, policies,
// serialize, cache), BENCH_CONCURRENCY at a time (default: as many as the change feed looks at once
// after a change, which is how a change reaches watchers). Passes: BENCH_PASSES (default 3). Prints
// JSON: per pass, its figures and what the serialized entries the answers share held at its end.
import { prisma } from '@/lib/db'
import { keptEntryPieces } from '@/lib/effective-tools/get-effective-tools'
import { subjectAnswer } from '@/lib/effective-tools/subject-answers'
import { LOOKS_AT_ONCE } from '@/lib/registry/change-feed'
import { noteRegistryChange, registryEpoch } from '@/lib/registry/registry-changes'

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? LOOKS_AT_ONCE)
const PASSES = Number(process.env.BENCH_PASSES ?? 3)

for (let i = 0; i < 100 && registryEpoch() === null; i++) await new Promise((r) => setTimeout(r, 100))
if (registryEpoch() === null) throw new Error('the registry change listener did not start')
const ids = (await prisma.agent.findMany({ select: { id: true }, orderBy: { name: 'asc' } })).map((a) => a.id)

const passes = []
for (let pass = 0; pass < PASSES; pass++) {
  noteRegistryChange()
  const cpu = process.cpuUsage()
  const t = performance.now()
  let next = 0
  let bytes = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next++]
        const body = await (await subjectAnswer('Agent', id, undefined)).arrayBuffer()
        bytes += body.byteLength
      }
    }),
  )
  const wallMs = performance.now() - t
  const used = process.cpuUsage(cpu)
  passes.push({
    agents: ids.length,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    meanBytes: Math.round(bytes / ids.length),
    kept: keptEntryPieces(),
    rss: process.memoryUsage().rss,
  })
}
console.log(JSON.stringify(passes))
await prisma.$disconnect()
process.exit(0)
