// Every source that offers a tool name to a subject, with the part it played in the effective set:
// the winner (which the gateway then runs, refuses by toggle or safety, or holds for approval), the
// candidates it shadowed, and those under a namespace reserved for another source, which never
// competed. Read off the resolver's own entries (resolve-effective-tools.ts), so no precedence rule
// is restated here. Pure.
import type { EffectiveTool, Tier } from '@/lib/effective-tools/types'
import { TIER_PRECEDENCE } from '@/lib/effective-tools/types'

export type CandidateRole = 'winner' | 'shadowed' | 'reserved'

export interface CandidateTrace {
  role: CandidateRole
  /** Why it won or lost, as a sentence. */
  why: string
  entry: EffectiveTool
}

export const PRECEDENCE_TEXT = (Object.keys(TIER_PRECEDENCE) as Tier[]).sort((a, b) => TIER_PRECEDENCE[b] - TIER_PRECEDENCE[a]).join(' > ')

/**
 * `entries`: the resolver's entries of one name (enabled, disabled and excluded ones); `isReserved`:
 * whether an entry was refused for squatting a reserved namespace (resolve-effective-tools.ts,
 * reservedDenialOf). Winner first, then the shadowed by precedence, then the reserved.
 */
export function traceCandidates(entries: EffectiveTool[], isReserved: (entry: EffectiveTool) => boolean): CandidateTrace[] {
  const reserved = entries.filter(isReserved)
  const competing = entries.filter((e) => !isReserved(e))
  const winner = competing.find((e) => e.state !== 'shadowed') ?? null
  const shadowed = competing.filter((e) => e !== winner).sort((a, b) => TIER_PRECEDENCE[b.tier] - TIER_PRECEDENCE[a.tier])
  const out: CandidateTrace[] = []
  if (winner) out.push({ role: 'winner', why: winnerWhy(winner, competing.length), entry: winner })
  for (const e of shadowed) out.push({ role: 'shadowed', why: e.reason ?? `shadowed by ${e.shadowedBy ?? 'a higher tier'}`, entry: e })
  for (const e of reserved) out.push({ role: 'reserved', why: `never competed: ${e.reason ?? 'its namespace is reserved for another source'}`, entry: e })
  return out
}

function winnerWhy(winner: EffectiveTool, competing: number): string {
  const won =
    competing === 1
      ? `the only source of ${winner.name}`
      : `wins ${winner.name} over ${competing - 1} other source${competing === 2 ? '' : 's'}: ${winner.tier} ranks highest (${PRECEDENCE_TEXT}; within a tier the first declared)`
  const from = winner.inheritedFromUnit ? `, inherited from unit "${winner.inheritedFromUnit}"` : ''
  switch (winner.state) {
    case 'enabled':
      return `${won}${from}; enabled${winner.reason ? ` (${winner.reason})` : ''}`
    case 'disabled':
      return `${won}${from}; ${winner.reason ?? 'disabled by a toggle'}`
    default:
      return `${won}${from}; denied: ${winner.reason ?? 'by a safety rule'}. A denied winner still shadows the others, so the name never falls through to a less governed source`
  }
}
