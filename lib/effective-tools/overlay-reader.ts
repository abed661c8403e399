// The registry as it would be after an apply, for the resolver: the stored registry's reader with the
// manifest's documents laid over it and the pruned resources taken out. Nothing is written; the
// resolver runs unchanged over it (impact-on-agents.ts compares its answers with the stored ones).
// A new or changed LanguageTool keeps the tools discovery last found on it (none for a new one):
// its tools only change when discovery runs again.
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { UnitSpec } from '@/lib/manifests/specs/fleet'
import type { SideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { catalogToolFromRow } from './catalog-tools'
import { connectorToolsOf, type RegistryReader, type ServerSurface } from './registry-reader'
import type { CatalogTool, PolicyDefaults } from './types'

/** What an apply would change, by key; `null` is a resource that would be gone (pruned). */
export interface RegistryOverlay {
  /** By `namespace/name`. */
  units: Map<string, UnitSpec | null>
  /** By slug. */
  connectors: Map<string, { namespace: string; spec: ConnectorSpec } | null>
  /** By `namespace/name`, with the stored 7-day figures where the Tool exists. */
  tools: Map<string, ToolSpec | null>
  /** By `namespace/name`: the spec a server would have, `null` for one that would be gone. */
  servers: Map<string, LanguageToolSpec | null>
  policies: Map<SideEffectLevel, SideEffectPolicySpec | null>
}

export function emptyOverlay(): RegistryOverlay {
  return { units: new Map(), connectors: new Map(), tools: new Map(), servers: new Map(), policies: new Map() }
}

export function overlayReader(base: RegistryReader, overlay: RegistryOverlay): RegistryReader {
  const unitsIn = async (namespace: string) => {
    const units = new Map(await base.unitsIn(namespace))
    for (const [ref, spec] of overlay.units) {
      const slash = ref.indexOf('/')
      if (ref.slice(0, slash) !== namespace) continue
      if (spec) units.set(ref.slice(slash + 1), spec)
      else units.delete(ref.slice(slash + 1))
    }
    return units
  }

  const connectors = async () => {
    const all = new Map(await base.connectors())
    for (const [slug, connector] of overlay.connectors) {
      if (connector) all.set(slug, connector)
      else all.delete(slug)
    }
    return all
  }

  const policies = async () => {
    const all = new Map<SideEffectLevel, PolicyDefaults>(await base.policies())
    for (const [level, spec] of overlay.policies) {
      if (spec) all.set(level, { requiresApproval: spec.requiresApproval, rateLimit: spec.rateLimit })
      else all.delete(level)
    }
    return all
  }

  const tools = async (refs: string[]) => {
    const stored = await base.tools(refs)
    const out = new Map<string, CatalogTool>()
    for (const ref of refs) {
      if (!overlay.tools.has(ref)) {
        const tool = stored.get(ref)
        if (tool) out.set(ref, tool)
        continue
      }
      const spec = overlay.tools.get(ref)
      if (!spec) continue
      const slash = ref.indexOf('/')
      const figures = stored.get(ref)?.stats ?? { totalCalls7d: 0, failureRate7d: null }
      out.set(
        ref,
        catalogToolFromRow({
          namespace: ref.slice(0, slash),
          name: ref.slice(slash + 1),
          spec,
          totalCalls7d: figures.totalCalls7d,
          failureRate7d: figures.failureRate7d,
        }),
      )
    }
    return out
  }

  const servers = async (refs: string[]) => {
    const stored = await base.servers(refs)
    const out = new Map<string, ServerSurface>()
    for (const ref of refs) {
      const spec = overlay.servers.get(ref)
      if (spec === null) continue
      const surface = stored.get(ref)
      if (surface) out.set(ref, spec ? { ...surface, spec } : surface)
      else if (spec) {
        const slash = ref.indexOf('/')
        out.set(ref, {
          namespace: ref.slice(0, slash),
          name: ref.slice(slash + 1),
          toolSchemas: [],
          phase: 'Pending',
          lastError: null,
          spec,
          detectedTransport: null,
          detectedUrl: null,
        })
      }
    }
    return out
  }

  const toolSpecs = async (refs: string[]) => {
    const stored = await base.toolSpecs(refs)
    const out = new Map<string, ToolSpec>()
    for (const ref of refs) {
      const spec = overlay.tools.has(ref) ? overlay.tools.get(ref) : stored.get(ref)
      if (spec) out.set(ref, spec)
    }
    return out
  }

  return { unitsIn, connectors, policies, tools, toolSpecs, servers, connectorTools: connectorToolsOf({ connectors, tools, servers }) }
}
