// The resolver as it was before a unit chain's candidates were shared (lib/effective-tools/
// resolve-effective-tools.ts at the time): each subject gathered level by level, its units walked for
// every toggle. Kept frozen, as the reference the shared resolution is held to
// (tests/unit/unit-chain-resolution.test.ts); not to be updated with the resolver.
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'
import { type Candidate, reservedDenialOf, safetyDenialOf, type Verdict, type VerdictSet } from '@/lib/effective-tools/resolve-effective-tools'
import { type CatalogTool, type EffectiveTool, type ResolverInput, type Tier, TIER_PRECEDENCE, type UnresolvedReference } from '@/lib/effective-tools/types'

export function perAgentVerdicts(input: ResolverInput): VerdictSet {
  const unresolved: UnresolvedReference[] = []
  const candidates = gatherCandidates(input, unresolved)

  // Entries under a reserved namespace from a source that does not own it never compete.
  for (const c of candidates) {
    const reserved = reservedDenialOf(c.tool.name, c.tier, input.connectorSlugs)
    if (reserved) c.deniedReason = reserved.message
  }

  // Highest tier wins a name; within a tier the first declared wins.
  const winners = new Map<string, Candidate>()
  for (const c of candidates) {
    if (c.deniedReason) continue
    const current = winners.get(c.tool.name)
    if (!current || TIER_PRECEDENCE[c.tier] > TIER_PRECEDENCE[current.tier]) winners.set(c.tool.name, c)
  }

  const tools: Verdict[] = []
  const excluded: Verdict[] = []
  const verdict = (c: Candidate, state: EffectiveTool['state'], reason: string | null): Verdict => ({ candidate: c, state, reason, name: c.tool.name })
  for (const c of candidates) {
    if (c.deniedReason) {
      excluded.push(verdict(c, 'denied', c.deniedReason))
      continue
    }
    const winner = winners.get(c.tool.name)!
    if (winner !== c) {
      const where = winner.inheritedFromUnit ? ` (inherited from unit "${winner.inheritedFromUnit}")` : ''
      const reason =
        winner.provenance === c.provenance
          ? `shadowed by the ${winner.tool.source.kind} "${winner.tool.source.name}" of the same name, declared first in ${winner.provenance}`
          : `shadowed by ${winner.provenance}${where}, which takes precedence`
      excluded.push({ ...verdict(c, 'shadowed', reason), shadowedBy: winner.provenance })
      continue
    }
    const denial = safetyDenialOf(c.tool, input.subject)?.message ?? null
    if (denial) {
      excluded.push(verdict(c, 'denied', denial))
      continue
    }
    const toggle = c.tier === 'image' ? null : nearestToggle(c.tool.name, input)
    if (toggle && !toggle.enabled) tools.push(verdict(c, 'disabled', `disabled by a toggle on ${toggle.where}`))
    else tools.push(verdict(c, 'enabled', toggle ? `enabled by a toggle on ${toggle.where}` : null))
  }
  return { tools, excluded, unresolved }
}

function gatherCandidates(input: ResolverInput, unresolved: UnresolvedReference[]): Candidate[] {
  const { subject, ancestors } = input
  const out: Candidate[] = []
  const add = (tool: CatalogTool, tier: Tier, provenance: string, inheritedFromUnit: string | null) => out.push({ tool, tier, provenance, inheritedFromUnit })
  // The subject first, then its units nearest first: a binding on the subject itself is reported as
  // its own even when an ancestor binds the same thing too.
  const levels = [{ node: subject, from: null as string | null }, ...ancestors.map((u) => ({ node: u, from: u.name }))]
  // The same broken reference on several levels is reported once, where it is nearest.
  const reported = new Set<string>()
  const missing = (field: string, reference: string, from: string | null, message: string) => {
    if (reported.has(`${field} ${reference}`)) return
    reported.add(`${field} ${reference}`)
    unresolved.push({ field, reference, inheritedFromUnit: from, message })
  }

  for (const tool of input.platformTools) add(tool, 'platform', 'platform', null)

  const boundSlugs = new Set<string>()
  for (const { node, from } of levels)
    for (const slug of node.connectors ?? []) {
      if (boundSlugs.has(slug)) continue
      boundSlugs.add(slug)
      const tools = input.connectorTools.get(slug)
      if (!tools) {
        missing('spec.connectors', slug, from, `connector "${slug}" does not exist`)
        continue
      }
      // One provenance string for the connector's tools: answers look their entries up by it.
      const provenance = `connector:${slug}`
      for (const tool of tools) add(tool, 'connector', provenance, from)
    }

  // Image tools belong to the subject's own image: never inherited.
  const imageProvenance = `image:${subject.imageDigest ?? 'unknown'}`
  for (const tool of subject.imageTools) add(tool, 'image', imageProvenance, null)

  for (const ref of subject.languageTools ?? []) {
    const tools = input.languageToolTools.get(ref)
    if (!tools) {
      missing('spec.languageTools', ref, null, `LanguageTool "${ref}" does not exist`)
      continue
    }
    const provenance = `mcp:${parseRef(ref, subject.namespace).name}`
    for (const tool of tools) add(tool, 'mcp', provenance, null)
  }

  const granted = new Set<string>()
  for (const { node, from } of levels)
    for (const ref of node.grants ?? []) {
      const tool = input.grantedTools.get(qualifyRef(ref, node.namespace))
      if (!tool) {
        missing('spec.grants', ref, from, `Tool "${ref}" does not exist`)
        continue
      }
      const key = `${tool.namespace}/${tool.name}`
      if (granted.has(key)) continue
      granted.add(key)
      add(tool, 'grant', 'grant', from)
    }

  // Gathered tier by tier in TIERS order, and in declaration order within each tier: already sorted.
  return out
}

/** The toggle that decides whether `name` is on for the subject: its own, else the nearest unit's. */
function nearestToggle(name: string, { subject, ancestors }: Pick<ResolverInput, 'subject' | 'ancestors'>): { enabled: boolean; where: string } | null {
  const own = subject.toggles?.[name]
  if (own !== undefined) return { enabled: own, where: `${subject.kind.toLowerCase()} "${subject.name}"` }
  for (const unit of ancestors) {
    const value = unit.toggles?.[name]
    if (value !== undefined) return { enabled: value, where: `unit "${unit.name}"` }
  }
  return null
}
