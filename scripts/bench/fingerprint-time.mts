// A watched effective set's fingerprint (its resourceVersion) over every agent of the bench fleet,
// after a change to everyone, in process: the whole answer serialized from the kept text and hashed
// (as before), against each entry's digest kept and the digests hashed (watch-effective-set.ts),
// alternately, BENCH_PASSES pairs. Run by hand beside bench:fleet-recompute's database:
//   DATABASE_URL=… TOOLROOM_SECRET_KEY=… node --conditions=react-server --import tsx scripts/bench/fingerprint-time.mts
// Prints JSON: per pass, the form, CPU and wall, and whether both forms told the same agents apart.
import { createRequire } from 'node:module'
import { prisma } from '@/lib/db'
import { noteRegistryChange, registryEpoch } from '@/lib/registry/registry-changes'

// Loaded as the modules load each other (CommonJS under tsx): an `import` here would load a second
// copy of serialize-effective-tools.ts, whose SerializedJson the first copy's sets are not instances of.
const require = createRequire(import.meta.url)
const { getEffectiveSetDigests, getSerializedEffectiveTools, NO_STATISTICS } =
  require('../../lib/effective-tools/get-effective-tools.ts') as typeof import('@/lib/effective-tools/get-effective-tools')
const { serializeObjectParts } =
  require('../../lib/effective-tools/serialize-effective-tools.ts') as typeof import('@/lib/effective-tools/serialize-effective-tools')
const { answerValue } = require('../../lib/effective-tools/subject-answers.ts') as typeof import('@/lib/effective-tools/subject-answers')
const { subjectRow } = require('../../lib/effective-tools/subject-rows.ts') as typeof import('@/lib/effective-tools/subject-rows')
const { contentVersion } = require('../../lib/http/watch-stream.ts') as typeof import('@/lib/http/watch-stream')

const CONCURRENCY = 8
const PASSES = Number(process.env.BENCH_PASSES ?? 3)
for (let i = 0; i < 100 && registryEpoch() === null; i++) await new Promise((r) => setTimeout(r, 100))
const ids = (await prisma.agent.findMany({ select: { id: true }, orderBy: { name: 'asc' } }))
  .map((a) => a.id)
  .slice(0, Number(process.env.BENCH_AGENTS ?? Infinity))

const forms = {
  text: async (id: string) => {
    const row = await subjectRow('Agent', id, undefined)
    const set = await getSerializedEffectiveTools('Agent', row, false, NO_STATISTICS)
    return contentVersion(serializeObjectParts(answerValue('Agent', row, set, 'tools')))
  },
  digests: async (id: string) => {
    const row = await subjectRow('Agent', id, undefined)
    const set = await getEffectiveSetDigests('Agent', row, false)
    return contentVersion(serializeObjectParts(answerValue('Agent', row, set, 'tools')))
  },
}

const passes = []
const seen: Record<string, string[]> = {}
for (let pass = 0; pass < PASSES; pass++)
  for (const form of ['text', 'digests'] as const) {
    noteRegistryChange()
    const cpu = process.cpuUsage()
    const t = performance.now()
    const prints: string[] = new Array(ids.length)
    let next = 0
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ids.length) {
          const i = next++
          prints[i] = await forms[form](ids[i])
        }
      }),
    )
    const used = process.cpuUsage(cpu)
    seen[form] = prints
    passes.push({ pass: pass + 1, form, agents: ids.length, wallMs: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000) })
  }
// Both forms must tell the same agents apart: equal sets get equal fingerprints in each.
const distinct = (prints: string[]) => new Set(prints).size
console.log(JSON.stringify({ passes, distinct: { text: distinct(seen.text), digests: distinct(seen.digests) } }))
await prisma.$disconnect()
process.exit(0)
