// Which agents an apply can reach: those whose resolver input (their own spec, their unit chain, the
// connectors, Tools and servers these name, the policies) holds something the manifest changes,
// before or after it. Only those are resolved twice for the impact on agents; every other agent's set
// cannot change. Pure. A change of policies, or of which connector slugs exist (reserved tool
// namespaces), can reach any agent: then all are candidates. The property test in
// tests/unit/impact-candidates.test.ts holds this to resolving every agent.
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import { qualify } from './resolve-effective-tools'

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
      if (spec.languageTool && touched.servers.has(qualify(spec.languageTool, namespace))) connectors.add(slug)
    }

  const reaches = (state: RegistryState, key: string): boolean => {
    const agent = state.agents.get(key)
    if (!agent) return false
    const namespace = key.slice(0, key.indexOf('/'))
    const levels: { connectors?: string[]; grants?: string[] }[] = [agent]
    const seen = new Set<string>()
    for (let unit = agent.unit; unit && !seen.has(unit); ) {
      seen.add(unit)
      const ref = `${namespace}/${unit}`
      // A unit the manifest creates, changes or deletes reaches the agents below it, also where the chain breaks.
      if (touched.units.has(ref)) return true
      const spec = state.units.get(ref)
      if (!spec) break
      levels.push(spec)
      unit = spec.parent
    }
    if ((agent.languageTools ?? []).some((ref) => touched.servers.has(qualify(ref, namespace)))) return true
    return levels.some(
      (level) => (level.connectors ?? []).some((slug) => connectors.has(slug)) || (level.grants ?? []).some((ref) => touched.tools.has(qualify(ref, namespace))),
    )
  }

  const candidates = new Set<string>()
  for (const key of everyone) if (touched.agents.has(key) || reaches(before, key) || reaches(after, key)) candidates.add(key)
  return candidates
}
