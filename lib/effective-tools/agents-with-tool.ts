// "Agents with this tool" (GET /api/v1/tools/{id}/agents): every agent whose effective set holds a
// Tool resource, and how: enabled, disabled by a toggle, denied by safety, or shadowed by another
// source of its name. Only agents that could be offered the Tool are resolved: those that grant it or
// bind a connector listing it, themselves or through a unit above them; each of those is resolved by
// the same resolver as its own page, so the states agree.
import { prisma } from '@/lib/db'
import { type Cursor, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor } from '@/lib/http/pagination'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Row } from '@/lib/resources/kind-adapters'
import { loadResolverInput } from './load-resolver-input'
import { registryReader } from './registry-reader'
import { qualify, resolveEffectiveTools } from './resolve-effective-tools'
import type { AgentsWithToolPage, AgentWithTool } from '@/lib/explain/explanation-schema'
import type { ToolState } from './types'

interface Offering {
  grants?: string[]
  connectors?: string[]
}

export async function agentsWithTool(tool: { namespace: string; name: string }, opts: { state?: ToolState; limit?: number; cursor?: string } = {}): Promise<AgentsWithToolPage> {
  const after = opts.cursor ? decodeCursor(opts.cursor) : null
  const ref = `${tool.namespace}/${tool.name}`
  const connectors = await registryReader().connectors()
  // A connector lists Tools of its own namespace by name.
  const listing = new Set([...connectors].filter(([, c]) => c.namespace === tool.namespace && (c.spec.tools ?? []).includes(tool.name)).map(([slug]) => slug))
  const offers = (node: Offering, namespace: string) =>
    (node.grants ?? []).some((g) => qualify(g, namespace) === ref) || (node.connectors ?? []).some((slug) => listing.has(slug))

  const [units, agents] = await Promise.all([
    prisma.unit.findMany({ select: { namespace: true, name: true, spec: true } }),
    prisma.agent.findMany({ select: { id: true, namespace: true, name: true, spec: true }, orderBy: [{ namespace: 'asc' }, { name: 'asc' }, { id: 'asc' }] }),
  ])
  const unitSpecs = new Map(units.map((u) => [`${u.namespace}/${u.name}`, u.spec as UnitSpec]))
  const chainOffers = (namespace: string, first: string | undefined) => {
    const seen = new Set<string>()
    for (let name = first; name && !seen.has(name); ) {
      seen.add(name)
      const unit = unitSpecs.get(`${namespace}/${name}`)
      if (!unit) return false
      if (offers(unit, namespace)) return true
      name = unit.parent
    }
    return false
  }
  const candidates = agents.filter((a) => {
    const spec = a.spec as AgentSpec
    return offers(spec, a.namespace) || chainOffers(a.namespace, spec.unit)
  })

  const found: AgentWithTool[] = []
  for (let i = 0; i < candidates.length; i += 200) {
    const rows = (await prisma.agent.findMany({ where: { id: { in: candidates.slice(i, i + 200).map((a) => a.id) } } })) as Row[]
    for (const row of rows) {
      const set = resolveEffectiveTools(await loadResolverInput('Agent', row))
      const entries = [...set.tools, ...set.excluded].filter((e) => e.source.kind === 'Tool' && e.source.namespace === tool.namespace && e.source.name === tool.name)
      // Granted and listed by a bound connector: the same Tool twice, and the one that is not shadowed tells.
      const entry = entries.find((e) => e.state !== 'shadowed') ?? entries[0]
      if (!entry) continue
      found.push({
        agent: { id: row.id, namespace: row.namespace, name: row.name, unit: ((row.spec as AgentSpec).unit as string | undefined) ?? null },
        state: entry.state,
        reason: entry.reason,
        provenance: entry.provenance,
        tier: entry.tier,
        inheritedFromUnit: entry.inheritedFromUnit,
        shadowedBy: entry.shadowedBy ?? null,
      })
    }
  }
  found.sort((x, y) => compareKeys(x.agent, y.agent))

  const counts: Record<ToolState, number> = { enabled: 0, disabled: 0, denied: 0, shadowed: 0 }
  for (const f of found) counts[f.state]++
  const limit = opts.limit ?? DEFAULT_PAGE_SIZE
  const matching = found.filter((f) => (!opts.state || f.state === opts.state) && (!after || compareKeys(f.agent, after) > 0))
  const items = matching.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: matching.length > limit && last ? encodeCursor(last.agent) : null, counts }
}

/** The keyset cursor's order, (namespace, name, id) by code point, for agents already in memory. */
function compareKeys(a: Cursor, b: Cursor): number {
  for (const field of ['namespace', 'name', 'id'] as const) if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1
  return 0
}
