// An agent's effective set read by tool name, as the agent page shows it: one group per name with the
// entry that decides what a call of it gets, and the other sources of the name that lost; and the
// reasons things were left out, with those shared by many names said once. Pure.
import type { EffectiveTool } from '@/lib/effective-tools/types'

export type NameVerdict = 'callable' | 'approval' | 'disabled' | 'denied'

export interface NameGroup {
  name: string
  /** The entry a call of the name meets: the enabled one, else the disabled winner, else the first denied. */
  decides: EffectiveTool
  verdict: NameVerdict
  /** The other entries of the name, in the API's order. */
  others: EffectiveTool[]
}

export function groupByName(tools: EffectiveTool[], excluded: EffectiveTool[]): NameGroup[] {
  const byName = new Map<string, EffectiveTool[]>()
  for (const e of [...tools, ...excluded]) byName.set(e.name, [...(byName.get(e.name) ?? []), e])
  const groups: NameGroup[] = []
  for (const [name, entries] of byName) {
    // A denied winner shadows the rest; denied entries that never competed shadow nothing.
    const shadowers = new Set(entries.map((e) => e.shadowedBy).filter(Boolean))
    const decides =
      entries.find((e) => e.state === 'enabled') ??
      entries.find((e) => e.state === 'disabled') ??
      entries.find((e) => e.state === 'denied' && shadowers.has(e.provenance)) ??
      entries.find((e) => e.state === 'denied') ??
      entries[0]
    const verdict: NameVerdict =
      decides.state === 'enabled' ? (decides.requiresApproval ? 'approval' : 'callable') : decides.state === 'disabled' ? 'disabled' : 'denied'
    groups.push({ name, decides, verdict, others: entries.filter((e) => e !== decides) })
  }
  return groups
}

export interface ReasonGroup {
  reason: string
  names: string[]
}

/** Reasons given for two or more left-out entries, most frequent first: each is said once, with its names. */
export function repeatedReasons(excluded: EffectiveTool[]): ReasonGroup[] {
  const byReason = new Map<string, string[]>()
  for (const e of excluded) if (e.reason) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.name])
  return [...byReason]
    .filter(([, names]) => names.length >= 2)
    .map(([reason, names]) => ({ reason, names }))
    .sort((a, b) => b.names.length - a.names.length || a.reason.localeCompare(b.reason))
}

/** Whether a group matches a search: its name, description or any of its sources. */
export function matchesSearch(group: NameGroup, text: string): boolean {
  const q = text.trim().toLowerCase()
  if (!q) return true
  return [group.decides, ...group.others].some(
    (e) => e.name.toLowerCase().includes(q) || e.description.toLowerCase().includes(q) || e.provenance.toLowerCase().includes(q),
  )
}

/** How a name's 7-day figures read: refusals are never shown as a 0 % failure rate. */
export function callFigures(tool: Pick<EffectiveTool, 'totalCalls7d' | 'failureRate7d' | 'refusedCalls7d'>): {
  calls: number
  failed: number | null
  refused: number
  ran: number
} {
  const refused = tool.refusedCalls7d ?? 0
  const ran = Math.max(0, tool.totalCalls7d - refused)
  const failed = tool.failureRate7d === null ? null : Math.round(tool.failureRate7d * tool.totalCalls7d)
  return { calls: tool.totalCalls7d, failed, refused, ran }
}
