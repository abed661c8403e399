// Two agents (or an agent and a unit) side by side: what each can call that the other cannot, and why
// not, with the fix. An agent's "why not" is the explainer's own answer (explainCall: the gateway's
// pipeline, its summary and its fix drafts), so the comparison and "Why not / Fix" cannot disagree; a
// unit is no caller, so its "why not" is its effective set's entry of the name and the draft that
// adds or turns the tool on there (fix-drafts.ts).
import 'server-only'
import { setDifferences, type OneSided } from '@/lib/effective-tools/compare-effective-sets'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import type { Row } from '@/lib/resources/kind-adapters'
import { getRow } from '@/lib/resources/resource-store'
import { toResourceView } from '@/lib/resources/resource-view'
import type { Comparison, ComparisonQuery } from './comparison-schema'
import { explainCall } from './explain-call'
import { bindConnectorDraft, enableToggleDraft, type FixDraft, grantDraft } from './fix-drafts'

type Kind = 'Agent' | 'Unit'
type Side = { kind: Kind; row: Row }

export async function compareSubjects(agentId: string, query: ComparisonQuery): Promise<Comparison> {
  const left: Side = { kind: 'Agent', row: await getRow('Agent', agentId, query.namespace) }
  const right: Side = { kind: query.withKind, row: await getRow(query.withKind, query.with, query.withNamespace ?? query.namespace) }
  const [leftSet, rightSet] = await Promise.all([left, right].map(async (s) => resolveEffectiveTools(await loadResolverInput(s.kind, s.row))))
  const diff = setDifferences(leftSet, rightSet)
  return {
    left: subjectOf(left),
    right: subjectOf(right),
    // One side at a time: each explanation reads the registry and rate-limit counters.
    onlyLeft: await sequential(diff.onlyLeft, (d) => oneSided(d, right)),
    onlyRight: await sequential(diff.onlyRight, (d) => oneSided(d, left)),
    differing: diff.differing.map(({ tool, left: l, right: r }) => ({ tool, left: entryOf(l), right: entryOf(r) })),
    same: diff.same,
  }
}

const subjectOf = ({ kind, row }: Side) => ({ kind, id: row.id, namespace: row.namespace, name: row.name })

const entryOf = (e: EffectiveTool) => ({
  provenance: e.provenance,
  tier: e.tier,
  inheritedFromUnit: e.inheritedFromUnit,
  level: e.sideEffects.level,
  requiresApproval: e.requiresApproval,
})

async function sequential<T, U>(items: T[], each: (item: T) => Promise<U>): Promise<U[]> {
  const out: U[] = []
  for (const item of items) out.push(await each(item))
  return out
}

/** The tool `has` lets one side call, and why `lacking` cannot. */
async function oneSided({ tool, has, other }: OneSided, lacking: Side): Promise<Comparison['onlyLeft'][number]> {
  // The other side's entry of the name is never enabled (that side would have the tool).
  const state = !other || other.state === 'enabled' ? 'absent' : other.state
  if (lacking.kind === 'Agent') {
    const explanation = await explainCall(lacking.row, { tool, arguments: {} })
    return { tool, has: entryOf(has), lacks: { state, reason: explanation.summary, fixes: explanation.fixes } }
  }
  return { tool, has: entryOf(has), lacks: { state, reason: unitReason(lacking.row, tool, other), fixes: unitFixes(lacking.row, has, other) } }
}

function unitReason(unit: Row, tool: string, other: EffectiveTool | null): string {
  const who = `unit ${unit.namespace}/${unit.name}`
  if (!other) return `no source of ${who} offers ${tool}: no grant, connector, MCP server or image tool of that name reaches it`
  if (other.state === 'disabled') return `${tool} is turned off for ${who}: ${other.reason ?? 'a toggle turns it off'}`
  return `${other.state} for ${who}: ${other.reason ?? other.state}`
}

/** The unit's own manifest changed so the tool reaches it: turned on, granted, or its connector bound. */
function unitFixes(unit: Row, has: EffectiveTool, other: EffectiveTool | null): FixDraft[] {
  const view = toResourceView('Unit', unit)
  if (other?.state === 'disabled') return [enableToggleDraft(view, has.name)]
  if (other) return []
  if (has.source.kind === 'Tool') return [grantDraft(view, { namespace: has.source.namespace ?? unit.namespace, name: has.source.name })]
  if (has.source.kind === 'Connector') return [bindConnectorDraft(view, has.source.name)]
  return []
}
