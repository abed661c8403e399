// The resolver's own time: inputs are loaded once per agent, then resolved many times in process.
import { prisma } from '@/lib/db'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { Row } from '@/lib/resources/kind-adapters'

const ids = process.argv.slice(2)
const resolveTimes: number[] = []
const loadTimes: number[] = []
let tools = 0
for (const id of ids) {
  const row = (await prisma.agent.findUniqueOrThrow({ where: { id } })) as unknown as Row
  let t = performance.now()
  const input = await loadResolverInput('Agent', row)
  loadTimes.push(performance.now() - t)
  for (let i = 0; i < 200; i++) {
    t = performance.now()
    const set = resolveEffectiveTools(input)
    const elapsed = performance.now() - t
    if (i >= 20) resolveTimes.push(elapsed) // after the JIT has warmed up
    tools = set.tools.length + set.excluded.length
  }
}
resolveTimes.sort((a, b) => a - b)
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
console.log(JSON.stringify({ meanMs: mean(resolveTimes), p99Ms: resolveTimes[Math.floor(resolveTimes.length * 0.99)], loadMeanMs: mean(loadTimes), tools }))
await prisma.$disconnect()
// The registry change listener (started by the reader) would keep the process alive.
process.exit(0)
