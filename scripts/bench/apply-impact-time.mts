// The dry runs of bench:apply-impact, in process against the benchmark's database: each manifest is
// built from the stored fleet, then dry-run once cold and three times warm. Prints JSON figures.
import { prisma } from '@/lib/db'
import { db, sql } from '@/lib/sql'
import { applyManifestText } from '@/lib/apply/apply-documents'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { systemContext } from '@/lib/audit/audit-actor'

type Spec = Record<string, unknown>
const doc = (kind: string, namespace: string, name: string, spec: Spec) =>
  JSON.stringify({ apiVersion: 'toolroom.dev/v1alpha1', kind, metadata: { name, namespace }, spec })
const unit = async (name: string) => (await prisma.unit.findUniqueOrThrow({ where: { namespace_name: { namespace: 'bench', name } } })).spec as Spec
const tool = async (name: string) => (await prisma.tool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'bench', name } } })).spec as Spec

const rootGrant = ((await unit('org-0')).grants as string[])[0]
const scenarios: { title: string; manifest: string }[] = [
  { title: 'a new agent', manifest: doc('Agent', 'bench', 'newcomer', { unit: 'team-0-0', grants: ['pool0.tool_1'] }) },
  {
    title: 'one grant added to a team (a leaf unit)',
    manifest: doc('Unit', 'bench', 'team-0-0', { ...(await unit('team-0-0')), grants: [...((await unit('team-0-0')).grants as string[]), 'pool9.tool_9'] }),
  },
  {
    title: 'one grant added to an organisation (a root unit)',
    manifest: doc('Unit', 'bench', 'org-0', { ...(await unit('org-0')), grants: [...((await unit('org-0')).grants as string[]), 'pool9.tool_9'] }),
  },
  {
    title: `a Tool an organisation grants (${rootGrant}) limited to one agent`,
    manifest: doc('Tool', 'bench', rootGrant, { ...(await tool(rootGrant)), safety: { allowedAgents: ['agent-0'] } }),
  },
  {
    title: 'a Tool of a connector an organisation binds (conn0.op_1) now requires approval',
    manifest: doc('Tool', 'bench', 'conn0.op_1', {
      ...(await tool('conn0.op_1')),
      sideEffects: { ...((await tool('conn0.op_1')).sideEffects as Spec), requiresApproval: true },
    }),
  },
  {
    title: 'the external_write SideEffectPolicy now requires approval (every agent)',
    manifest: doc('SideEffectPolicy', 'default', 'external_write', { level: 'external_write', requiresApproval: true, logArgs: true, logResult: true }),
  },
]
// Listening for registry changes, as a web process does, so the registry reader is kept between dry runs.
await sql`SELECT 1`.execute(db)
for (let i = 0; i < 50 && registryEpoch() === null; i++) await new Promise((r) => setTimeout(r, 100))

const only = process.env.BENCH_ONLY ? scenarios.filter((s) => s.title.includes(process.env.BENCH_ONLY!)) : scenarios
const figures = []
for (const { title, manifest } of only) {
  const times: number[] = []
  const cpu: number[] = []
  let answer: Awaited<ReturnType<typeof applyManifestText>> | null = null
  for (let i = 0; i < 4; i++) {
    const t = performance.now()
    const c = process.cpuUsage()
    answer = await applyManifestText(manifest, { dryRun: true, audit: systemContext('bench'), caller: 'system' })
    const used = process.cpuUsage(c)
    times.push(performance.now() - t)
    cpu.push((used.user + used.system) / 1000)
  }
  const impact = answer!.impact!
  const median = (xs: number[]) => xs.slice(1).sort((a, b) => a - b)[1]
  figures.push({
    title,
    resolved: impact.agentsResolved,
    affected: impact.agentsAffected,
    toolChanges: impact.agents.reduce((n, a) => n + a.changes.length, 0),
    truncated: impact.truncated,
    coldMs: times[0],
    warmMs: median(times),
    coldCpuMs: cpu[0],
    warmCpuMs: median(cpu),
  })
}
console.log(JSON.stringify(figures))
await prisma.$disconnect()
process.exit(0)
