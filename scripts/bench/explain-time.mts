// In-process times of the explainer and of "Agents with this tool" over the bench fleet: the first
// call after a registry change (reader memo cold) and the steady state. BENCH_POLICIES=<n> first
// stores n Policies that reach every explained call (`selector.tools: ["*"]` in the fleet's
// namespace), each a condition over the arguments that does not match, so the explainer evaluates
// and traces every rule of every one: the worst case. Prints JSON.
import { prisma } from '@/lib/db'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { agentsWithTool } from '@/lib/effective-tools/agents-with-tool'
import { explainCall } from '@/lib/explain/explain-call'
import type { Row } from '@/lib/resources/kind-adapters'

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now()
  const value = await fn()
  return [performance.now() - t, value]
}

const POLICIES = Number(process.env.BENCH_POLICIES ?? 0)
if (POLICIES > 0) {
  await prisma.policy.createMany({
    data: Array.from({ length: POLICIES }, (_, i) => ({
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: 'bench',
      name: `bench-${i}`,
      spec: {
        selector: { tools: ['*'] },
        rules: [{ when: `has(args.id) && args.id.startsWith("blocked-${i}-") && args.limit > 1000`, effect: 'deny', reason: `bench policy ${i}` }],
      },
    })),
  })
  // As in the web process: the compiled Policies are kept per registry epoch, which needs the change listener.
  for (let i = 0; i < 100 && registryEpoch() === null; i++) await new Promise((r) => setTimeout(r, 100))
  if (registryEpoch() === null) throw new Error('the registry change listener did not start')
}

const root = await prisma.unit.findFirstOrThrow({ where: { namespace: 'bench', name: 'org-0' } })
const team = await prisma.unit.findFirstOrThrow({ where: { namespace: 'bench', name: 'team-0-0' } })
const agent0 = await prisma.agent.findFirstOrThrow({ where: { namespace: 'bench', name: 'agent-0' } })
const grantOf = (spec: unknown) => (spec as { grants: string[] }).grants[0]
const subjects = [
  { what: 'Tool granted on a root unit', name: grantOf(root.spec) },
  { what: 'Tool granted on a leaf unit', name: grantOf(team.spec) },
  { what: "Tool listed by a root unit's connector", name: 'conn0.op_1' },
  { what: 'Tool granted on one agent', name: grantOf(agent0.spec) },
]
const withTool = []
for (const s of subjects) {
  const [coldMs, page] = await timed(() => agentsWithTool({ namespace: 'bench', name: s.name }, { limit: 50 }))
  const warm: number[] = []
  for (let i = 0; i < 5; i++) warm.push((await timed(() => agentsWithTool({ namespace: 'bench', name: s.name }, { limit: 50 })))[0])
  const reached = Object.values(page.counts).reduce((a, b) => a + b, 0)
  withTool.push({ what: s.what, tool: s.name, agents: reached, firstMs: Math.round(coldMs), meanMs: Math.round(mean(warm)) })
}

const agents = (await prisma.agent.findMany({ where: { namespace: 'bench' }, take: 200, orderBy: { name: 'asc' } })) as unknown as Row[]
const explainMs: number[] = []
for (const [i, row] of agents.entries()) {
  const name = (row.spec as { grants: string[] }).grants[i % 5]
  const [ms, x] = await timed(() => explainCall(row, { tool: name, arguments: { id: `r-${i}`, limit: 10 } }))
  if (!x.decision) throw new Error('no decision')
  const traced = x.policies.filter((p) => p.policy.startsWith('bench/bench-'))
  if (traced.length !== POLICIES || traced.some((p) => p.outcome !== 'not_matched'))
    throw new Error(`the bench Policies were not all evaluated: ${JSON.stringify(traced.slice(0, 3))}`)
  if (i >= 20) explainMs.push(ms)
}
console.log(
  JSON.stringify({
    withTool,
    policies: POLICIES,
    explain: { calls: explainMs.length, meanMs: +mean(explainMs).toFixed(1), p95Ms: +pct(explainMs, 0.95).toFixed(1), p99Ms: +pct(explainMs, 0.99).toFixed(1) },
  }),
)
await prisma.$disconnect()
process.exit(0)
