// "Agents with this tool" (GET /api/v1/tools/{id}/agents): every agent whose effective set holds a
// Tool resource, and how: enabled, disabled by a toggle, denied by safety, or shadowed by another
// source of its name. Only agents that could be offered the Tool are resolved: those that grant it or
// bind a connector listing it, themselves or through a unit above them; each of those is resolved by
// the same resolver as its own page, on the sources of the Tool's name alone (inputForName), so the
// states agree.
import 'server-only'
import { prisma } from '@/lib/db'
import { type Cursor, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor } from '@/lib/http/pagination'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Row } from '@/lib/resources/kind-adapters'
import { loadResolverInput } from './load-resolver-input'
import { registryReader } from './registry-reader'
import { qualifyRef } from '@/lib/refs/resource-ref'
import { resolveEffectiveTools } from './resolve-effective-tools'
import { db, sql } from '@/lib/sql'
import type { AgentsWithToolPage, AgentWithTool } from '@/lib/explain/explanation-schema'
import type { ToolState } from './types'

interface Offering {
  grants?: string[]
  connectors?: string[]
}

export async function agentsWithTool(
  tool: { namespace: string; name: string },
  opts: { state?: ToolState; limit?: number; cursor?: string } = {},
): Promise<AgentsWithToolPage> {
  const after = opts.cursor ? decodeCursor(opts.cursor) : null
  const ref = `${tool.namespace}/${tool.name}`
  const connectors = await registryReader().connectors()
  // A connector lists Tools of its own namespace by name.
  const listing = [...connectors].filter(([, c]) => c.namespace === tool.namespace && (c.spec.tools ?? []).includes(tool.name)).map(([slug]) => slug)
  const offers = (node: Offering, namespace: string) =>
    (node.grants ?? []).some((g) => qualifyRef(g, namespace) === ref) || (node.connectors ?? []).some((slug) => listing.includes(slug))

  // Units through which the Tool reaches their agents: those that offer it, and every unit below one.
  const units = await prisma.unit.findMany({ select: { namespace: true, name: true, spec: true } })
  const unitSpecs = new Map(units.map((u) => [`${u.namespace}/${u.name}`, u.spec as UnitSpec]))
  const reaches = (namespace: string, first: string) => {
    const seen = new Set<string>()
    for (let name: string | undefined = first; name && !seen.has(name);) {
      seen.add(name)
      const unit = unitSpecs.get(`${namespace}/${name}`)
      if (!unit) return false
      if (offers(unit, namespace)) return true
      name = unit.parent
    }
    return false
  }
  const reachingUnits = units.filter((u) => reaches(u.namespace, u.name)).map((u) => `${u.namespace}/${u.name}`)

  // The agents it could reach: by their unit, a bound connector, or their own grant (bare in the Tool's namespace, or qualified).
  const candidates = await db
    .selectFrom('Agent as a')
    .select((eb) => sql<string>`${eb.ref('a.id')}::text`.as('id'))
    .where((eb) => {
      const grants = sql`${eb.ref('a.spec')}::jsonb -> 'grants'`
      return eb.or([
        eb.and([
          eb('a.unit', 'is not', null),
          eb(sql<string>`${eb.ref('a.namespace')} || '/' || ${eb.ref('a.unit')}`, '=', eb.fn.any(sql<string[]>`${reachingUnits}::text[]`)),
        ]),
        eb('a.connectors', '&&', sql<string[]>`${listing}::text[]`),
        eb.fn<boolean>('jsonb_exists', [grants, eb.val(ref)]),
        eb.and([eb('a.namespace', '=', tool.namespace), eb.fn<boolean>('jsonb_exists', [grants, eb.val(tool.name)])]),
      ])
    })
    .execute()

  const found: AgentWithTool[] = []
  for (let i = 0; i < candidates.length; i += 200) {
    const rows = (await prisma.agent.findMany({
      where: { id: { in: candidates.slice(i, i + 200).map((a) => a.id) } },
      select: { id: true, namespace: true, name: true, spec: true, imageTools: true, imageDigest: true },
    })) as unknown as Row[]
    for (const row of rows) {
      const set = resolveEffectiveTools(await loadResolverInput('Agent', row, registryReader(), tool.name))
      const entries = [...set.tools, ...set.excluded].filter(
        (e) => e.source.kind === 'Tool' && e.source.namespace === tool.namespace && e.source.name === tool.name,
      )
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
