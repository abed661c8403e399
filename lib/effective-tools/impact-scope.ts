// Which tool names an apply can change for an agent it reaches, so its sets are worked out for those
// names only. The resolver decides each name from the candidates of that name alone (the winner by
// tier and order, the name's toggle, the winner's safety rules and level policy, whether its
// namespace is reserved), so a resolver input cut down to some names gives exactly the entries of
// those names. A grant added to a unit above 1,000 agents then resolves one name per agent, not 300.
// When a change can reach any name (a policy, which connector slugs exist, a unit chain that moves,
// an agent or unit that appears or goes) the scope is every name. The property test in
// tests/unit/impact-candidates.test.ts holds the scoped comparison to the full one.
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import { toolNamespaceOf } from '@/lib/tools/naming'
import { catalogToolsFromMcp } from './catalog-tools'
import type { RegistryState, TouchedResources } from './impact-candidates'
import type { RegistryReader } from './registry-reader'
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'
import type { CatalogTool, ResolverInput } from './types'

/** Names, plus every name that has a candidate of one of `levels` or lies under one of `namespaces`. */
export type ToolNames = { names: ReadonlySet<string>; levels: ReadonlySet<SideEffectLevel>; namespaces: ReadonlySet<string> } | 'all'

export interface ScopeContext {
  before: RegistryState
  after: RegistryState
  touched: TouchedResources
  /** Levels of the SideEffectPolicies the apply creates, changes or deletes. */
  policyLevels: ReadonlySet<SideEffectLevel>
  /** Connector slugs the apply creates or deletes. */
  slugsAppearingOrGoing: ReadonlySet<string>
  /** The stored registry and the would-be one. */
  readers: [RegistryReader, RegistryReader]
}

export function toolNameScopes(context: ScopeContext): { forAgent(key: string): Promise<ToolNames> } {
  const { before, after, touched, readers, policyLevels, slugsAppearingOrGoing } = context
  const connectorNames = async (slug: string) =>
    (await Promise.all(readers.map((r) => r.connectorTools(slug)))).flatMap((tools) => (tools ?? []).map((t) => t.name))
  const serverNames = async (ref: string) =>
    (await Promise.all(readers.map((r) => r.servers([ref])))).flatMap((found) => {
      const server = found.get(ref)
      return server
        ? catalogToolsFromMcp(server.name, server, server.toolSchemas, { kind: 'LanguageTool', name: server.name, namespace: server.namespace }).map(
            (t) => t.name,
          )
        : []
    })

  const global = memo(async (): Promise<ToolNames> => {
    const names = new Set<string>()
    for (const ref of touched.tools) names.add(ref.slice(ref.indexOf('/') + 1))
    const slugs = new Set(touched.connectors)
    for (const ref of touched.servers) {
      for (const name of await serverNames(ref)) names.add(name)
      for (const state of [before, after])
        for (const [slug, { namespace, spec }] of state.connectors) if (spec.languageTool && qualifyRef(spec.languageTool, namespace) === ref) slugs.add(slug)
    }
    for (const slug of slugs) for (const name of await connectorNames(slug)) names.add(name)
    return { names, levels: policyLevels, namespaces: slugsAppearingOrGoing }
  })

  /**
   * The names a change to a unit or an agent reaches: every name when it appears, goes or moves (`moved`:
   * another parent or unit), else every name bound in a list that changed, in either version (order
   * decides within a tier).
   */
  const changedNames = async <T extends BindingLists>(ref: string, b: T | undefined, a: T | undefined, moved: (b: T, a: T) => boolean): Promise<ToolNames> => {
    if (!a || !b || moved(b, a)) return 'all'
    const namespace = ref.slice(0, ref.indexOf('/'))
    const names = new Set<string>()
    if (!sameList(b.connectors, a.connectors))
      for (const slug of union(b.connectors, a.connectors)) for (const name of await connectorNames(slug)) names.add(name)
    if (!sameList(b.grants, a.grants)) for (const grant of union(b.grants, a.grants)) names.add(parseRef(grant, namespace).name)
    if (!sameList(b.languageTools, a.languageTools))
      for (const server of union(b.languageTools, a.languageTools)) for (const name of await serverNames(qualifyRef(server, namespace))) names.add(name)
    for (const key of new Set([...Object.keys(b.toggles ?? {}), ...Object.keys(a.toggles ?? {})])) if (b.toggles?.[key] !== a.toggles?.[key]) names.add(key)
    return just(names)
  }

  // Many agents share a unit: its scope is worked out once.
  const unitScopes = new Map<string, Promise<ToolNames>>()
  const unitNames = (ref: string) => {
    if (!unitScopes.has(ref))
      unitScopes.set(
        ref,
        changedNames(ref, before.units.get(ref), after.units.get(ref), (b, a) => b.parent !== a.parent),
      )
    return unitScopes.get(ref)!
  }
  const agentNames = (key: string) => changedNames(key, before.agents.get(key), after.agents.get(key), (b, a) => b.unit !== a.unit)

  return {
    async forAgent(key) {
      const scopes: ToolNames[] = [await global()]
      if (touched.agents.has(key)) scopes.push(await agentNames(key))
      const namespace = key.slice(0, key.indexOf('/'))
      for (const state of [before, after]) {
        const seen = new Set<string>()
        for (let unit = state.agents.get(key)?.unit; unit && !seen.has(unit);) {
          seen.add(unit)
          const ref = `${namespace}/${unit}`
          if (touched.units.has(ref)) scopes.push(await unitNames(ref))
          unit = state.units.get(ref)?.parent
        }
      }
      if (scopes.includes('all')) return 'all'
      const parts = scopes as Exclude<ToolNames, 'all'>[]
      return {
        names: new Set(parts.flatMap((s) => [...s.names])),
        levels: new Set(parts.flatMap((s) => [...s.levels])),
        namespaces: new Set(parts.flatMap((s) => [...s.namespaces])),
      }
    },
  }
}

/** The resolver's input cut down to the candidates of some names (see the top of this file). */
export function restrictResolverInput(input: ResolverInput, scope: ToolNames): ResolverInput {
  if (scope === 'all') return input
  let names = scope.names
  if (scope.levels.size > 0 || scope.namespaces.size > 0) {
    const widened = new Set(names)
    const all = [
      input.subject.imageTools,
      input.platformTools,
      ...input.connectorTools.values(),
      ...input.languageToolTools.values(),
      [...input.grantedTools.values()],
    ]
    const underNamespace = scope.namespaces.size > 0 ? (name: string) => scope.namespaces.has(toolNamespaceOf(name)) : () => false
    for (const tools of all) for (const tool of tools) if (scope.levels.has(tool.level) || underNamespace(tool.name)) widened.add(tool.name)
    names = widened
  }
  const keep = (tool: CatalogTool) => names.has(tool.name)
  const cut = (byKey: ReadonlyMap<string, CatalogTool[]>) => new Map([...byKey].map(([key, tools]) => [key, tools.filter(keep)]))
  return {
    ...input,
    subject: { ...input.subject, imageTools: input.subject.imageTools.filter(keep) },
    platformTools: input.platformTools.filter(keep),
    connectorTools: cut(input.connectorTools),
    languageToolTools: cut(input.languageToolTools),
    // A grant cut away reads as unresolved to the resolver; unresolved references are not compared.
    grantedTools: new Map([...input.grantedTools].filter(([, tool]) => keep(tool))),
  }
}

type BindingLists = Pick<AgentSpec & UnitSpec, 'connectors' | 'grants' | 'languageTools' | 'toggles'>

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  const x = a ?? []
  const y = b ?? []
  return x.length === y.length && x.every((v, i) => v === y[i])
}

function union(a: string[] | undefined, b: string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])]
}

const just = (names: ReadonlySet<string>): ToolNames => ({ names, levels: new Set(), namespaces: new Set() })

function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null
  return () => (value ??= load())
}
