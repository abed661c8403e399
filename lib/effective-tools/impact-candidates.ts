// Which agents an apply can reach: those whose resolver input (their own spec, their unit chain, the
// connectors, Tools and servers these name, the policies) holds something the manifest changes,
// before or after it. Only those are resolved twice for the impact on agents; every other agent's set
// cannot change. Pure. A change of policies, or of which connector slugs exist (reserved tool
// namespaces), can reach any agent: then all are candidates. The property test in
// tests/unit/impact-candidates.test.ts holds this to resolving every agent.
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import { qualifyRef } from '@/lib/refs/resource-ref'

export interface TouchedResources {
  /** `namespace/name` of agents created, changed or deleted. */
  agents: ReadonlySet<string>
  units: ReadonlySet<string>
  /** Slugs. */
  connectors: ReadonlySet<string>
  tools: ReadonlySet<string>
  servers: ReadonlySet<string>
  /** Some SideEffectPolicy is created, changed or deleted. */
  policies: boolean
  /** A connector is created or deleted: the reserved tool namespaces change. */
  connectorSlugs: boolean
}

export interface RegistryState {
  /** By `namespace/name`. */
  agents: ReadonlyMap<string, AgentSpec>
  units: ReadonlyMap<string, UnitSpec>
  /** By slug. */
  connectors: ReadonlyMap<string, { namespace: string; spec: ConnectorSpec }>
}

/** `namespace/name` of every agent, in either state, whose effective set the apply may change. */
export function impactCandidates(before: RegistryState, after: RegistryState, touched: TouchedResources): Set<string> {
  const everyone = new Set([...before.agents.keys(), ...after.agents.keys()])
  if (touched.policies || touched.connectorSlugs) return everyone

  const connectors = new Set(touched.connectors)
  for (const state of [before, after])
    for (const [slug, { namespace, spec }] of state.connectors) {
      if ((spec.tools ?? []).some((tool) => touched.tools.has(`${namespace}/${tool}`))) connectors.add(slug)
      if (spec.languageTool && touched.servers.has(qualifyRef(spec.languageTool, namespace))) connectors.add(slug)
    }

  const bindsTouched = (namespace: string, level: { connectors?: string[]; grants?: string[] }) =>
    (level.connectors ?? []).some((slug) => connectors.has(slug)) || (level.grants ?? []).some((ref) => touched.tools.has(qualifyRef(ref, namespace)))
  // Whether a unit, or one above it, is touched or binds something touched; units are shared by many agents.
  const unitReaches = [new Map<string, boolean>(), new Map<string, boolean>()]
  const unitReached = (state: RegistryState, memo: Map<string, boolean>, namespace: string, unit: string | undefined, seen: Set<string>): boolean => {
    if (!unit || seen.has(unit)) return false
    const ref = `${namespace}/${unit}`
    const known = memo.get(ref)
    if (known !== undefined) return known
    seen.add(unit)
    // A unit the manifest creates, changes or deletes reaches the agents below it, also where the chain breaks.
    const spec = state.units.get(ref)
    const reached = touched.units.has(ref) || (spec !== undefined && (bindsTouched(namespace, spec) || unitReached(state, memo, namespace, spec.parent, seen)))
    memo.set(ref, reached)
    return reached
  }

  const reaches = (state: RegistryState, memo: Map<string, boolean>, key: string): boolean => {
    const agent = state.agents.get(key)
    if (!agent) return false
    const namespace = key.slice(0, key.indexOf('/'))
    if ((agent.languageTools ?? []).some((ref) => touched.servers.has(qualifyRef(ref, namespace)))) return true
    return bindsTouched(namespace, agent) || unitReached(state, memo, namespace, agent.unit, new Set())
  }

  const candidates = new Set<string>()
  for (const key of everyone) if (touched.agents.has(key) || reaches(before, unitReaches[0], key) || reaches(after, unitReaches[1], key)) candidates.add(key)
  return candidates
}
