// Gathers what the resolver needs for one agent or unit: its unit chain, and the connectors, servers
// and Tools it and its units refer to, through the registry reader.
import { qualifyRef } from '@/lib/manifests/resource-ref'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Row } from '@/lib/resources/kind-adapters'
import { catalogToolsFromImage, catalogToolsFromMcp, type ImageToolDefinition } from './catalog-tools'
import { canonicalSegment, toolNamespaceOf } from '@/lib/tools/naming'
import { PLATFORM_TOOLS } from './platform-tools'
import { type RegistryReader, registryReader, type ServerSurface } from './registry-reader'
import { inputForName } from './resolve-effective-tools'
import type { CatalogTool, ResolverInput, SubjectNode } from './types'

/**
 * `onlyName`: load only what can offer that tool name (grants of a Tool so named, servers whose tools
 * carry its first segment) and leave the other names out (inputForName): for questions about one name
 * across many subjects, which then resolve that name as the whole input would.
 */
export async function loadResolverInput(
  kind: 'Agent' | 'Unit',
  row: Row,
  reader: RegistryReader = registryReader(),
  onlyName?: string,
): Promise<ResolverInput> {
  const spec = row.spec as AgentSpec & UnitSpec
  const ancestors = await loadAncestors(reader, row.namespace, kind === 'Agent' ? spec.unit : spec.parent)
  const levels: SubjectNode[] = [{ name: row.name, namespace: row.namespace, ...spec }, ...ancestors]

  const slugs = [...new Set(levels.flatMap((l) => l.connectors ?? []))]
  const named = (ref: string) => onlyName === undefined || ref.slice(ref.indexOf('/') + 1) === onlyName
  const grantRefs = [...new Set(levels.flatMap((l) => (l.grants ?? []).map((g) => qualifyRef(g, l.namespace))))].filter(named)
  // A server's tools are named `<server, canonical>.<tool>` (catalogToolsFromMcp).
  const serves = (ref: string) => onlyName === undefined || canonicalSegment(ref.slice(ref.indexOf('/') + 1)) === toolNamespaceOf(onlyName)
  const serverRefs = kind === 'Agent' ? (spec.languageTools ?? []).filter(serves) : []

  const [connectors, surfaces, granted, servers, policies] = await Promise.all([
    reader.connectors(),
    Promise.all(slugs.map((slug) => reader.connectorTools(slug))),
    reader.tools(grantRefs),
    reader.servers(serverRefs.map((r) => qualifyRef(r, row.namespace))),
    reader.policies(),
  ])

  const connectorTools = new Map<string, CatalogTool[]>()
  slugs.forEach((slug, i) => surfaces[i] && connectorTools.set(slug, surfaces[i]))

  const languageToolTools = new Map<string, CatalogTool[]>()
  for (const ref of serverRefs) {
    const server = servers.get(qualifyRef(ref, row.namespace))
    if (!server) continue
    languageToolTools.set(ref, serverCatalog(server))
  }

  const input: ResolverInput = {
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
    grantedTools: granted,
    connectorSlugs: new Set(connectors.keys()),
    policies,
  }
  return onlyName === undefined ? input : inputForName(input, onlyName)
}

// A server's surface object is the reader's, kept while the registry is unchanged: its catalog too.
const serverCatalogs = new WeakMap<ServerSurface, CatalogTool[]>()

function serverCatalog(server: ServerSurface): CatalogTool[] {
  let tools = serverCatalogs.get(server)
  if (!tools) {
    tools = catalogToolsFromMcp(server.name, server, server.toolSchemas, { kind: 'LanguageTool', name: server.name, namespace: server.namespace })
    serverCatalogs.set(server, tools)
  }
  return tools
}

/** The unit chain above a subject, nearest first; stops at a missing unit or a cycle. */
async function loadAncestors(reader: RegistryReader, namespace: string, first: string | undefined): Promise<SubjectNode[]> {
  if (!first) return []
  const units = await reader.unitsIn(namespace)
  const chain: SubjectNode[] = []
  const seen = new Set<string>()
  for (let name: string | undefined = first; name && !seen.has(name);) {
    seen.add(name)
    const unit = units.get(name)
    if (!unit) break
    chain.push({ name, namespace, connectors: unit.connectors, grants: unit.grants, toggles: unit.toggles })
    name = unit.parent
  }
  return chain
}
