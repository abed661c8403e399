// What an Apply answer says beyond "written or not", made readable: each document's field-level
// changes (shown in the audit log's diff view) and, for dry runs, how every agent's effective tool
// set would change. The shape is the Apply answer's contract (lib/api/schemas.ts applyResultSchema).
import type { z } from 'zod'
import type { applyResultSchema, applyImpactSchema } from '@/lib/api/schemas'

type ContractAnswer = z.output<typeof applyResultSchema>
type ContractResult = ContractAnswer['results'][number]

export type ApplyAction = ContractResult['action']
export type FieldChange = ContractResult['changes'][number]
export type ApplyImpact = z.output<typeof applyImpactSchema>
export type ImpactEntry = NonNullable<ApplyImpact['agents'][number]['changes'][number]['before']>
export type ApplyWarning = NonNullable<ContractAnswer['warnings']>[number]

/** One document's outcome; a server that does not compute field changes yet leaves `changes` out. */
export type ApplyDocumentResult = Omit<ContractResult, 'changes'> & { changes?: FieldChange[] }
export type ApplyAnswer = Omit<ContractAnswer, 'results'> & { results: ApplyDocumentResult[] }

export function countActions(results: readonly ApplyDocumentResult[]): Record<ApplyAction, number> {
  const counts = { created: 0, updated: 0, unchanged: 0, deleted: 0 }
  for (const r of results) counts[r.action]++
  return counts
}

/**
 * A document's changes as two flat objects keyed by path, for the audit log's before/after diff:
 * a field only added has no `before` key, one only removed no `after` key.
 */
export function changesAsDocuments(changes: readonly FieldChange[]): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before: Record<string, unknown> = {}
  const after: Record<string, unknown> = {}
  for (const change of changes) {
    if ('before' in change && change.before !== undefined) before[change.path] = change.before
    if ('after' in change && change.after !== undefined) after[change.path] = change.after
  }
  return { before, after }
}

/** How a change to a document reads in one word: a field added, removed or changed. */
export function changeKind(change: FieldChange): 'added' | 'removed' | 'changed' {
  if (change.before === undefined) return 'added'
  if (change.after === undefined) return 'removed'
  return 'changed'
}

/** "enabled, connector tier (connector:zendesk), needs approval"; the source only where it says more than the tier. */
export function describeEntry(entry: ImpactEntry | undefined): string {
  if (!entry) return 'not in the set'
  const source = entry.source === entry.tier ? '' : ` (${entry.source})`
  return `${entry.state}, ${entry.tier} tier${source}${entry.requiresApproval ? ', needs approval' : ''}`
}

export interface ImpactRow {
  /** `id` is null for an agent the manifest creates. */
  agent: { id: string | null; namespace: string; name: string }
  tool: string
  change: 'gained' | 'lost' | 'changed'
  before: string
  after: string
  reason: string
}

/** One row per agent and tool whose effective entry would change, agents in the answer's order. */
export function impactRows(impact: ApplyImpact): ImpactRow[] {
  return impact.agents.flatMap((a) =>
    a.changes.map((c) => ({
      agent: { id: a.id, namespace: a.namespace, name: a.name },
      tool: c.tool,
      change: c.change,
      before: describeEntry(c.before),
      after: describeEntry(c.after),
      reason: c.reason,
    })),
  )
}
