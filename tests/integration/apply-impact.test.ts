// The impact on agents of a dry run, on the demo fleet (README, "GitOps"): every agent whose effective
// set would change, tool by tool, as the effective-tools API will show it after the apply; nothing is
// written. Each case applies the manifest afterwards and checks the impact against the real sets.
import { beforeEach, describe, expect, it } from 'vitest'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { call, countRows, yaml } from './helpers'

const apply = (body: string, query = '') => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body })
const agentFleet = fleetRoutes('Agent')

type Entry = { name: string; state: string; requiresApproval: boolean; tier: string; provenance: string }
type ToolImpact = { tool: string; change: string; before?: object; after?: object; reason: string }
type Impact = {
  agentsChecked: number
  agentsAffected: number
  truncated: boolean
  agents: { id: string | null; namespace: string; name: string; changes: ToolImpact[] }[]
}

async function deciding(namespace: string, name: string): Promise<Map<string, object>> {
  const agent = await prisma.agent.findUnique({ where: { namespace_name: { namespace, name } } })
  if (!agent) return new Map()
  const res = await call(agentFleet.effectiveTools, `/api/v1/agents/${agent.id}/effective-tools?include=excluded`, { params: { id: agent.id } })
  const out = new Map<string, object>()
  for (const e of [...res.json.effectiveTools, ...res.json.excluded.filter((x: Entry) => x.state !== 'shadowed'), ...res.json.excluded] as Entry[])
    if (!out.has(e.name)) out.set(e.name, { state: e.state, requiresApproval: e.requiresApproval, tier: e.tier, source: e.provenance })
  return out
}

/** Dry run, then the real apply; the impact must be exactly what changed in the agents' sets. */
async function impactOf(manifest: string, query = ''): Promise<Impact> {
  const agents = await prisma.agent.findMany({ select: { namespace: true, name: true } })
  const before = new Map<string, Map<string, object>>(
    await Promise.all(agents.map(async (a) => [`${a.namespace}/${a.name}`, await deciding(a.namespace, a.name)] as const)),
  )
  const rows = await countRows()
  const events = await prisma.auditEvent.count()
  const dry = await apply(manifest, `?dryRun=true${query}`)
  expect(dry.status, dry.text).toBe(200)
  expect(await countRows()).toEqual(rows)
  expect(await prisma.auditEvent.count()).toBe(events)
  const impact = dry.json.impact as Impact

  const real = await apply(manifest, query ? `?${query.slice(1)}` : '')
  expect(real.status, real.text).toBe(200)
  const after = await prisma.agent.findMany({ select: { namespace: true, name: true } })
  const keys = new Set([...before.keys(), ...after.map((a) => `${a.namespace}/${a.name}`)])
  let affected = 0
  for (const key of keys) {
    const [namespace, name] = key.split('/') as [string, string]
    const was = before.get(key) ?? new Map()
    const will = await deciding(namespace, name)
    const expected = [...new Set([...was.keys(), ...will.keys()])]
      .sort()
      .filter((tool) => JSON.stringify(was.get(tool)) !== JSON.stringify(will.get(tool)))
      .map((tool) => ({
        tool,
        change: !was.has(tool) ? 'gained' : !will.has(tool) ? 'lost' : 'changed',
        ...(was.has(tool) ? { before: was.get(tool) } : {}),
        ...(will.has(tool) ? { after: will.get(tool) } : {}),
      }))
    const reported = impact.agents.find((a) => a.namespace === namespace && a.name === name)
    expect(
      (reported?.changes ?? []).map(({ reason, ...rest }) => (expect(reason.length).toBeGreaterThan(10), rest)),
      key,
    ).toEqual(expected)
    if (expected.length) affected++
  }
  expect(impact.agentsAffected).toBe(affected)
  expect(impact.agentsChecked).toBe(keys.size)
  return impact
}

const changeTo = async (kind: string, namespace: string, name: string, edit: (spec: Record<string, unknown>) => void) => {
  const model = { Unit: prisma.unit, Agent: prisma.agent, Tool: prisma.tool, SideEffectPolicy: prisma.sideEffectPolicy }[kind] as unknown as {
    findUniqueOrThrow(a: object): Promise<{ apiVersion: string; labels: unknown; spec: Record<string, unknown> }>
  }
  const row = await model.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } })
  const spec = structuredClone(row.spec)
  edit(spec)
  return JSON.stringify({ apiVersion: row.apiVersion, kind, metadata: { name, namespace, labels: row.labels }, spec })
}

beforeEach(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE "Tool", "LanguageTool", "Connector", "Unit", "Agent", "Secret", "SideEffectPolicy"')
  expect((await seedDemoFleet()).seeded).toBe(true)
})

describe('impact on agents', () => {
  it('one grant on a unit: exactly the agents below it gain the tool, with the approval it needs', async () => {
    const manifest = await changeTo('Unit', 'support', 'support-escalations', (s) => (s.grants as string[]).push('finance/stripe.create_refund'))
    const impact = await impactOf(manifest)
    expect(impact.agentsAffected).toBe(1)
    expect(impact.agents[0]).toMatchObject({ namespace: 'support', name: 'support-escalation', id: expect.any(String) })
    expect(impact.agents[0].changes).toEqual([
      {
        tool: 'stripe.create_refund',
        change: 'gained',
        after: { state: 'enabled', requiresApproval: true, tier: 'grant', source: 'grant' },
        reason: 'gains it from grant (inherited from unit "support-escalations"): enabled, its calls wait for approval',
      },
    ])
  })

  it('a Tool that now names its agents: the others see it denied, with the reason', async () => {
    const impact = await impactOf(await changeTo('Tool', 'support', 'northwind.lookup_order', (s) => (s.safety = { allowedAgents: ['support-triage'] })))
    expect(impact.agentsAffected).toBeGreaterThan(1)
    const denied = impact.agents.flatMap((a) => a.changes.filter((c) => (c.after as Entry | undefined)?.state === 'denied'))
    expect(denied.length).toBeGreaterThan(0)
    expect(denied[0].reason).toMatch(/enabled → denied: agent ".*" is not in safety.allowedAgents/)
  })

  it('a policy change: the tools of that level newly wait for approval', async () => {
    const impact = await impactOf(await changeTo('SideEffectPolicy', 'default', 'external_write', (s) => (s.requiresApproval = true)))
    expect(impact.agentsAffected).toBeGreaterThan(3)
    const change = impact.agents[0].changes[0]
    expect(change).toMatchObject({ change: 'changed', before: { requiresApproval: false }, after: { requiresApproval: true } })
    expect(change.reason).toContain('now wait for approval (the external_write SideEffectPolicy)')
  })

  it('a toggle, a new agent, and a grant that shadows a connector entry', async () => {
    const toggle = await changeTo('Agent', 'support', 'support-faq', (s) => (s.toggles = { 'northwind.lookup_order': false }))
    const newcomer = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: newcomer, namespace: support }
spec: { unit: support-tier1 }
`
    const shadow = await changeTo('Unit', 'support', 'support-tier1', (s) => (s.grants as string[]).push('support-platform/zendesk.merge_tickets'))
    // YAML first: a manifest that starts with "{" is read as one JSON text.
    const impact = await impactOf([newcomer, toggle, shadow].join('\n---\n'))
    const faq = impact.agents.find((a) => a.name === 'support-faq')!
    expect(faq.changes.find((c) => c.tool === 'northwind.lookup_order')).toMatchObject({
      change: 'changed',
      after: { state: 'disabled' },
      reason: expect.stringContaining('enabled → disabled: disabled by a toggle on agent "support-faq"'),
    })
    const created = impact.agents.find((a) => a.name === 'newcomer')!
    expect(created.id).toBeNull()
    expect(created.changes.every((c) => c.change === 'gained')).toBe(true)
    const merge = faq.changes.find((c) => c.tool === 'zendesk.merge_tickets')!
    expect(merge).toMatchObject({ change: 'changed', before: { tier: 'connector' }, after: { tier: 'grant' } })
    expect(merge.reason).toContain('the connector:zendesk entry is now shadowed by grant')
  })

  it('pruning a unit: its agents lose what it gave them', async () => {
    await prisma.unit.update({ where: { namespace_name: { namespace: 'finance', name: 'receivables' } }, data: { labels: { owner: 'gitops' } } })
    const unrelated = await changeTo('Unit', 'finance', 'payables', () => {})
    const impact = await impactOf(unrelated, `&prune=${encodeURIComponent('owner=gitops')}`)
    expect(impact.agentsAffected).toBeGreaterThan(0)
    const lost = impact.agents[0].changes.find((c) => c.tool === 'erp.get_ar_aging')!
    expect(lost).toMatchObject({ change: 'lost', before: { tier: 'grant', state: 'enabled' } })
    expect(lost.reason).toContain('no source offers it any more; it came from grant (inherited from unit "receivables")')
  })

  it('is empty for a manifest that changes nothing, and absent from a real apply', async () => {
    const same = await changeTo('Unit', 'finance', 'payables', () => {})
    const dry = await apply(same, '?dryRun=true')
    expect(dry.json.impact).toEqual({ agentsChecked: expect.any(Number), agentsResolved: expect.any(Number), agentsAffected: 0, agents: [], truncated: false })
    expect((await apply(same)).json.impact).toBeUndefined()
  })
})
