// Gathers what the resolver needs for one agent or unit: its unit chain, and the connectors, servers
// and Tools it and its units refer to, through the registry reader.
import { qualifyRef } from '@/lib/refs/resource-ref'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Row } from '@/lib/resources/kind-adapters'
import { catalogToolsFromImage, catalogToolsFromMcp, type ImageToolDefinition } from './catalog-tools'
import { canonicalSegment, toolNamespaceOf } from '@/lib/tools/naming'
import { PLATFORM_TOOLS } from './platform-tools'
import { type RegistryReader, registryReader, type ServerSurface } from './registry-reader'
import { inputForName, unitChainCandidates } from './resolve-effective-tools'
import type { CatalogTool, ResolverInput, SubjectNode, UnitChainCandidates } from './types'

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
  const input = await loadInput(kind, row, reader, [{ name: row.name, namespace: row.namespace, ...spec }, ...ancestors], ancestors, onlyName)
  return onlyName === undefined ? input : inputForName(input, onlyName)
}

/**
 * loadResolverInput for resolving alone (answers, the gateway's sets): what the unit chain adds is
 * worked out once per chain and registry epoch and shared by every subject below it (`chain`), so
 * a subject costs its own bindings only. Its `connectorTools` and `grantedTools` hold the subject's
 * own references alone: not an input to restrict (impact-scope.ts, inputForName) or to explain.
 */
export async function loadSharedResolverInput(kind: 'Agent' | 'Unit', row: Row, reader: RegistryReader = registryReader()): Promise<ResolverInput> {
  const spec = row.spec as AgentSpec & UnitSpec
  const { ancestors, chain } = await sharedChain(reader, row.namespace, kind === 'Agent' ? spec.unit : spec.parent)
  return { ...(await loadInput(kind, row, reader, [{ name: row.name, namespace: row.namespace, ...spec }], ancestors)), chain }
}

/** The input of `row` whose connectors and grants are read from `levels` (the subject, and its units unless shared). */
async function loadInput(
  kind: 'Agent' | 'Unit',
  row: Row,
  reader: RegistryReader,
  levels: SubjectNode[],
  ancestors: SubjectNode[],
  onlyName?: string,
): Promise<ResolverInput> {
  const spec = row.spec as AgentSpec & UnitSpec
  const slugs = [...new Set(levels.flatMap((l) => l.connectors ?? []))]
  const named = (ref: string) => onlyName === undefined || ref.slice(ref.indexOf('/') + 1) === onlyName
  const grantRefs = [...new Set(levels.flatMap((l) => (l.grants ?? []).map((g) => qualifyRef(g, l.namespace))))].filter(named)
  // A server's tools are named `<server, canonical>.<tool>` (catalogToolsFromMcp).
  const serves = (ref: string) => onlyName === undefined || canonicalSegment(ref.slice(ref.indexOf('/') + 1)) === toolNamespaceOf(onlyName)
  const serverRefs = kind === 'Agent' ? (spec.languageTools ?? []).filter(serves) : []

  const [connectors, connectorTools, granted, servers, policies] = await Promise.all([
    reader.connectors(),
    toolsOfConnectors(reader, slugs),
    reader.tools(grantRefs),
    reader.servers(serverRefs.map((r) => qualifyRef(r, row.namespace))),
    reader.policies(),
  ])

  const languageToolTools = new Map<string, CatalogTool[]>()
  for (const ref of serverRefs) {
    const server = servers.get(qualifyRef(ref, row.namespace))
    if (!server) continue
    languageToolTools.set(ref, serverCatalog(server))
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
    grantedTools: granted,
    connectorSlugs: new Set(connectors.keys()),
    policies,
  }
}

async function toolsOfConnectors(reader: RegistryReader, slugs: string[]): Promise<Map<string, CatalogTool[]>> {
  const surfaces = await Promise.all(slugs.map((slug) => reader.connectorTools(slug)))
  const connectorTools = new Map<string, CatalogTool[]>()
  slugs.forEach((slug, i) => surfaces[i] && connectorTools.set(slug, surfaces[i]))
  return connectorTools
}

interface SharedChain {
  ancestors: SubjectNode[]
  chain: UnitChainCandidates
}

// Per reader, so a chain lives exactly as long as the registry state it was read from (one epoch).
const sharedChains = new WeakMap<RegistryReader, Map<string, Promise<SharedChain>>>()

/** The unit chain from `first` up, and what it adds to the candidates of every subject below it. */
function sharedChain(reader: RegistryReader, namespace: string, first: string | undefined): Promise<SharedChain> {
  let chains = sharedChains.get(reader)
  if (!chains) sharedChains.set(reader, (chains = new Map()))
  const key = JSON.stringify([namespace, first ?? null])
  let chain = chains.get(key)
  if (!chain) {
    chain = (async () => {
      const ancestors = await loadAncestors(reader, namespace, first)
      const slugs = [...new Set(ancestors.flatMap((u) => u.connectors ?? []))]
      const grantRefs = [...new Set(ancestors.flatMap((u) => (u.grants ?? []).map((g) => qualifyRef(g, u.namespace))))]
      const [connectorTools, grantedTools] = await Promise.all([toolsOfConnectors(reader, slugs), reader.tools(grantRefs)])
      return { ancestors, chain: unitChainCandidates({ ancestors, connectorTools, grantedTools }) }
    })()
    chains.set(key, chain)
    // A failed read (the database went away) is asked again by the next subject, not kept.
    chain.catch(() => chains.delete(key))
  }
  return chain
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
