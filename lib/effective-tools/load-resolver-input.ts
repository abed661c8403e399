// Reads what the resolver needs for one agent or unit: its unit chain, the connectors, servers and
// Tools it refers to (and only those), and the side-effect policies.
import { prisma } from '@/lib/db'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { SideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'
import type { Row } from '@/lib/resources/kind-adapters'
import { catalogToolFromRow, catalogToolsFromImage, catalogToolsFromMcp, type DiscoveredMcpTool, type ImageToolDefinition } from './catalog-tools'
import { PLATFORM_TOOLS } from './platform-tools'
import { qualify } from './resolve-effective-tools'
import type { CatalogTool, PolicyDefaults, ResolverInput, SubjectNode } from './types'

interface ToolRow {
  name: string
  namespace: string
  spec: unknown
  totalCalls7d: number
  failureRate7d: number | null
}

/** Tools by `namespace/name` references, in one indexed lookup (a join on unnest, not an OR chain). */
async function toolsByRefs(refs: string[]): Promise<ToolRow[]> {
  if (refs.length === 0) return []
  const { namespaces, names } = splitRefs(refs)
  return prisma.$queryRaw<ToolRow[]>`
    SELECT t.name, t.namespace, t.spec, t."totalCalls7d", t."failureRate7d"
    FROM "Tool" t JOIN unnest(${namespaces}::text[], ${names}::text[]) AS r(namespace, name)
      ON t.namespace = r.namespace AND t.name = r.name`
}

async function languageToolsByRefs(refs: string[]): Promise<{ name: string; namespace: string; toolSchemas: unknown }[]> {
  if (refs.length === 0) return []
  const { namespaces, names } = splitRefs(refs)
  return prisma.$queryRaw`
    SELECT s.name, s.namespace, s."toolSchemas"
    FROM "LanguageTool" s JOIN unnest(${namespaces}::text[], ${names}::text[]) AS r(namespace, name)
      ON s.namespace = r.namespace AND s.name = r.name`
}

export async function loadResolverInput(kind: 'Agent' | 'Unit', row: Row): Promise<ResolverInput> {
  const spec = row.spec as AgentSpec & UnitSpec
  const firstUnit = kind === 'Agent' ? spec.unit : spec.parent
  const ancestors = await loadAncestors(row.namespace, firstUnit)
  const levels: SubjectNode[] = [{ name: row.name, namespace: row.namespace, ...spec }, ...ancestors]

  const slugs = [...new Set(levels.flatMap((l) => l.connectors ?? []))]
  const grantRefs = [...new Set(levels.flatMap((l) => (l.grants ?? []).map((g) => qualify(g, l.namespace))))]
  const serverRefs = kind === 'Agent' ? [...new Set((spec.languageTools ?? []).map((r) => qualify(r, row.namespace)))] : []

  const [connectors, allSlugs, grantRows, policies] = await Promise.all([
    slugs.length ? prisma.connector.findMany({ where: { name: { in: slugs } } }) : [],
    prisma.connector.findMany({ select: { name: true } }),
    toolsByRefs(grantRefs),
    loadPolicies(),
  ])

  // Connector surfaces: their listed Tools and the discovered tools of their MCP server.
  const connectorSpecs = connectors.map((c) => ({ row: c, spec: c.spec as ConnectorSpec }))
  const connectorToolRefs = connectorSpecs.flatMap(({ row: c, spec: s }) => (s.tools ?? []).map((t) => `${c.namespace}/${t}`))
  const connectorServerRefs = connectorSpecs.filter(({ spec: s }) => s.languageTool).map(({ row: c, spec: s }) => qualify(s.languageTool!, c.namespace))
  const [connectorToolRows, servers] = await Promise.all([
    toolsByRefs(connectorToolRefs),
    languageToolsByRefs([...serverRefs, ...connectorServerRefs]),
  ])
  const serverByRef = new Map(servers.map((s) => [`${s.namespace}/${s.name}`, s]))
  const toolByRef = new Map([...grantRows, ...connectorToolRows].map((t) => [`${t.namespace}/${t.name}`, catalogToolFromRow(t)]))

  const connectorTools = new Map<string, CatalogTool[]>()
  for (const { row: c, spec: s } of connectorSpecs) {
    const source = { kind: 'Connector' as const, name: c.name, namespace: c.namespace }
    const listed = (s.tools ?? []).flatMap((t) => toolByRef.get(`${c.namespace}/${t}`) ?? [])
    const server = s.languageTool ? serverByRef.get(qualify(s.languageTool, c.namespace)) : undefined
    const discovered = server ? catalogToolsFromMcp(c.name, server, server.toolSchemas as unknown as DiscoveredMcpTool[], source) : []
    connectorTools.set(c.name, [...listed, ...discovered])
  }

  const languageToolTools = new Map<string, CatalogTool[]>()
  for (const ref of spec.languageTools ?? []) {
    const server = kind === 'Agent' ? serverByRef.get(qualify(ref, row.namespace)) : undefined
    if (!server) continue
    const source = { kind: 'LanguageTool' as const, name: server.name, namespace: server.namespace }
    languageToolTools.set(ref, catalogToolsFromMcp(server.name, server, server.toolSchemas as unknown as DiscoveredMcpTool[], source))
  }

  const grantedTools = new Map<string, CatalogTool>()
  for (const ref of grantRefs) {
    const tool = toolByRef.get(ref)
    if (tool) grantedTools.set(ref, tool)
  }

  return {
    subject: {
      kind,
      name: row.name,
      namespace: row.namespace,
      connectors: spec.connectors,
      grants: spec.grants,
      toggles: spec.toggles,
      languageTools: kind === 'Agent' ? spec.languageTools : undefined,
      imageTools: catalogToolsFromImage({ kind, name: row.name, namespace: row.namespace }, row.imageTools as ImageToolDefinition[]),
      imageDigest: (row.imageDigest as string | null) ?? null,
    },
    ancestors,
    platformTools: PLATFORM_TOOLS as CatalogTool[],
    connectorTools,
    languageToolTools,
    grantedTools,
    connectorSlugs: new Set(allSlugs.map((c) => c.name)),
    policies,
  }
}

function splitRefs(refs: string[]) {
  const namespaces: string[] = []
  const names: string[] = []
  for (const ref of refs) {
    const slash = ref.indexOf('/')
    namespaces.push(ref.slice(0, slash))
    names.push(ref.slice(slash + 1))
  }
  return { namespaces, names }
}

/** The unit chain above a subject, nearest first; stops at a missing unit or a cycle. */
async function loadAncestors(namespace: string, first: string | undefined): Promise<SubjectNode[]> {
  if (!first) return []
  const units = await prisma.unit.findMany({ where: { namespace }, select: { name: true, spec: true } })
  const byName = new Map(units.map((u) => [u.name, u.spec as UnitSpec]))
  const chain: SubjectNode[] = []
  const seen = new Set<string>()
  for (let name: string | undefined = first; name && !seen.has(name); ) {
    seen.add(name)
    const unit = byName.get(name)
    if (!unit) break
    chain.push({ name, namespace, connectors: unit.connectors, grants: unit.grants, toggles: unit.toggles })
    name = unit.parent
  }
  return chain
}

export async function loadPolicies(): Promise<Map<SideEffectLevel, PolicyDefaults>> {
  const rows = await prisma.sideEffectPolicy.findMany({ select: { level: true, spec: true } })
  return new Map(rows.map((r) => {
    const spec = r.spec as SideEffectPolicySpec
    return [r.level, { requiresApproval: spec.requiresApproval, rateLimit: spec.rateLimit }]
  }))
}
