// What changes for one agent between two effective tool sets (before and after an apply), tool by
// tool: which tools it gains, loses, or sees change (state, approval, tier or source), each with a
// sentence saying why. Pure. A tool is compared by the entry that decides it: the winner of its name
// (enabled or disabled), else the entry that denied it; shadowed entries only explain a change of
// winner.
import type { EffectiveTool, EffectiveToolSet, Tier, ToolState } from './types'

export interface EntryView {
  state: ToolState
  requiresApproval: boolean
  tier: Tier
  /** The provenance, as the effective-tools API names it (`grant`, `connector:zendesk`, `mcp:github`, …). */
  source: string
}

export interface ToolImpact {
  tool: string
  change: 'gained' | 'lost' | 'changed'
  before?: EntryView
  after?: EntryView
  reason: string
}

export function compareEffectiveSets(before: EffectiveToolSet | null, after: EffectiveToolSet | null): ToolImpact[] {
  const was = decidingEntries(before)
  const will = decidingEntries(after)
  const names = [...new Set([...was.keys(), ...will.keys()])].sort()
  const impacts: ToolImpact[] = []
  for (const tool of names) {
    const b = was.get(tool)
    const a = will.get(tool)
    if (!b && a) impacts.push({ tool, change: 'gained', after: view(a), reason: gainedReason(a) })
    else if (b && !a) impacts.push({ tool, change: 'lost', before: view(b), reason: lostReason(b, after) })
    else if (b && a && !sameView(view(b), view(a)))
      impacts.push({ tool, change: 'changed', before: view(b), after: view(a), reason: changedReason(b, a, after) })
  }
  return impacts
}

function decidingEntries(set: EffectiveToolSet | null): Map<string, EffectiveTool> {
  const out = new Map<string, EffectiveTool>()
  if (!set) return out
  for (const entry of set.tools) if (!out.has(entry.name)) out.set(entry.name, entry)
  for (const entry of set.excluded) if (entry.state !== 'shadowed' && !out.has(entry.name)) out.set(entry.name, entry)
  for (const entry of set.excluded) if (!out.has(entry.name)) out.set(entry.name, entry)
  return out
}

function view(entry: EffectiveTool): EntryView {
  return { state: entry.state, requiresApproval: entry.requiresApproval, tier: entry.tier, source: entry.provenance }
}

function sameView(a: EntryView, b: EntryView): boolean {
  return a.state === b.state && a.requiresApproval === b.requiresApproval && a.tier === b.tier && a.source === b.source
}

function origin(entry: EffectiveTool): string {
  return entry.inheritedFromUnit ? `${entry.provenance} (inherited from unit "${entry.inheritedFromUnit}")` : entry.provenance
}

function stateText(entry: EffectiveTool): string {
  switch (entry.state) {
    case 'enabled':
      return entry.requiresApproval ? 'enabled, its calls wait for approval' : 'enabled'
    case 'disabled':
      return entry.reason ?? 'disabled'
    case 'denied':
      return `denied: ${entry.reason}`
    case 'shadowed':
      return entry.reason ?? 'shadowed'
  }
}

function gainedReason(entry: EffectiveTool): string {
  return `gains it from ${origin(entry)}: ${stateText(entry)}`
}

function lostReason(entry: EffectiveTool, after: EffectiveToolSet | null): string {
  if (!after) return `the agent would be deleted; it had the tool from ${origin(entry)}`
  return `no source offers it any more; it came from ${origin(entry)}`
}

function changedReason(b: EffectiveTool, a: EffectiveTool, after: EffectiveToolSet | null): string {
  const parts: string[] = []
  if (b.provenance !== a.provenance || b.tier !== a.tier) {
    const shadowed = after?.excluded.find((e) => e.name === a.name && e.provenance === b.provenance && e.state === 'shadowed')
    parts.push(shadowed ? `the ${b.provenance} entry is now shadowed by ${origin(a)}` : `now comes from ${origin(a)} instead of ${b.provenance}`)
  }
  if (b.state !== a.state) parts.push(`${b.state} → ${a.state}${a.state === 'enabled' ? '' : `: ${a.reason ?? a.state}`}`)
  if (b.requiresApproval !== a.requiresApproval)
    parts.push(a.requiresApproval ? `its calls now wait for approval (${approvalText(a)})` : `its calls no longer wait for approval (${approvalText(a)})`)
  return parts.join('; ')
}

function approvalText(entry: EffectiveTool): string {
  switch (entry.approvalSource) {
    case 'tool':
      return "the Tool's sideEffects.requiresApproval"
    case 'policy':
      return `the ${entry.sideEffects.level} SideEffectPolicy`
    case 'default':
      return `Toolroom's default for ${entry.sideEffects.level}`
  }
}

/** A tool one side can call and the other cannot: the entry that offers it, and what the other side holds of its name (null: nothing). */
export interface OneSided {
  tool: string
  has: EffectiveTool
  other: EffectiveTool | null
}

export interface SetDifferences {
  onlyLeft: OneSided[]
  onlyRight: OneSided[]
  /** Tools both sides can call, from another source or under another approval rule. */
  differing: { tool: string; left: EffectiveTool; right: EffectiveTool }[]
  /** Tools both sides can call the same way. */
  same: number
}

/**
 * Two subjects' effective sets side by side (two agents, an agent and a unit): what each can call
 * that the other cannot, and what both can call differently. Pure; "can call" is an enabled entry.
 */
export function setDifferences(left: EffectiveToolSet, right: EffectiveToolSet): SetDifferences {
  const enabled = (set: EffectiveToolSet) => new Map(set.tools.filter((t) => t.state === 'enabled').map((t) => [t.name, t]))
  const [l, r] = [enabled(left), enabled(right)]
  const [lDeciding, rDeciding] = [decidingEntries(left), decidingEntries(right)]
  const out: SetDifferences = { onlyLeft: [], onlyRight: [], differing: [], same: 0 }
  for (const tool of [...new Set([...l.keys(), ...r.keys()])].sort()) {
    const [a, b] = [l.get(tool), r.get(tool)]
    if (a && !b) out.onlyLeft.push({ tool, has: a, other: rDeciding.get(tool) ?? null })
    else if (b && !a) out.onlyRight.push({ tool, has: b, other: lDeciding.get(tool) ?? null })
    else if (a && b) {
      if (a.provenance === b.provenance && a.requiresApproval === b.requiresApproval) out.same++
      else out.differing.push({ tool, left: a, right: b })
    }
  }
  return out
}
