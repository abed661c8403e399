import { prisma } from '@/lib/db'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
const agents = await prisma.agent.findMany({ take: 300, select: { id: true } })
let tl = 0, tr = 0, tj = 0, tf = 0
for (const { id } of agents) {
  let t = performance.now()
  const row: any = await prisma.agent.findUnique({ where: { id } })
  tf += performance.now() - t; t = performance.now()
  const input = await loadResolverInput('Agent', row)
  tl += performance.now() - t; t = performance.now()
  const set = resolveEffectiveTools(input)
  tr += performance.now() - t; t = performance.now()
  JSON.stringify({ ...row, effectiveTools: set.tools })
  tj += performance.now() - t
}
const n = agents.length
console.log({ fetch: tf / n, load: tl / n, resolve: tr / n, json: tj / n })
process.exit(0)
