// Grouping of an effective tool set into the agent page's sections (tier order: docs/design/effective-tools.md#tiers).
import type { EffectiveTool, Tier } from './api'

export interface ProvenanceGroup {
  provenance: string
  tier: Tier
  title: string
  /** The slug, digest or server name after the colon, if any. */
  detail: string | null
  tools: EffectiveTool[]
}

const TIER_ORDER: Tier[] = ['platform', 'connector', 'image', 'mcp', 'grant']

function provenanceParts(provenance: string): { tier: string; detail: string | null } {
  const colon = provenance.indexOf(':')
  return colon === -1 ? { tier: provenance, detail: null } : { tier: provenance.slice(0, colon), detail: provenance.slice(colon + 1) }
}

function provenanceTitle(provenance: string): string {
  const { tier, detail } = provenanceParts(provenance)
  switch (tier) {
    case 'platform':
      return 'Platform'
    case 'connector':
      return `Connector ${detail}`
    case 'image':
      return 'Image'
    case 'mcp':
      return `MCP ${detail}`
    case 'grant':
      return 'Grants'
    default:
      return provenance
  }
}

/** Sections in tier order; within a tier, in the order the API listed them (which is deterministic). */
export function groupByProvenance(tools: EffectiveTool[]): ProvenanceGroup[] {
  const groups = new Map<string, ProvenanceGroup>()
  for (const tool of tools) {
    let group = groups.get(tool.provenance)
    if (!group) {
      group = {
        provenance: tool.provenance,
        tier: tool.tier,
        title: provenanceTitle(tool.provenance),
        detail: provenanceParts(tool.provenance).detail,
        tools: [],
      }
      groups.set(tool.provenance, group)
    }
    group.tools.push(tool)
  }
  return [...groups.values()].sort((a, b) => TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier))
}
