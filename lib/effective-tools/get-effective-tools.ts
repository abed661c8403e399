// Effective tool set of a stored agent or unit: load, resolve, then attach each entry's 7-day call
// statistics (from the stats cache, which moves on its own clock, not the registry's): those of the
// entry's own resolved tool, not of every tool of its name.
import { policiesOnTools } from '@/lib/policy/policy-set'
import { registryEpoch } from '@/lib/registry/registry-changes'
import type { Row } from '@/lib/resources/kind-adapters'
import { toolStatsSnapshot, type ToolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { entryPiecesBudgetBytes, processMemoryLimitBytes } from './answer-cache-size'
import { attachStats } from './attach-stats'
import { loadSharedResolverInput } from './load-resolver-input'
import { resolveEffectiveTools, resolveVerdicts, type VerdictSet } from './resolve-effective-tools'
import { entriesAs, type EntryForm, type EntryPieces, entryPieces, SerializedJson } from './serialize-effective-tools'
import type { EffectiveToolSet, ResolverInput, UnresolvedReference } from './types'

export async function getEffectiveTools(kind: 'Agent' | 'Unit', row: Row): Promise<EffectiveToolSet> {
  const [set, stats] = await Promise.all([loadSharedResolverInput(kind, row).then(resolveEffectiveTools), toolStatsSnapshot()])
  // Entries are fresh objects per resolve: filled in place.
  for (const entry of [...set.tools, ...set.excluded]) attachStats(entry, stats)
  if (kind === 'Agent') await policiesOnTools(row, set.tools)
  return set
}

/** An effective set as serialized JSON (its entries' text shared across answers), with its unresolved references. */
export interface SerializedEffectiveSet {
  tools: SerializedJson
  excluded: SerializedJson
  unresolved: UnresolvedReference[]
}

/**
 * Statistics that say nothing: entries serialized with them carry only what the registry decides,
 * which is what a watch's resourceVersion fingerprints (watch-effective-set.ts).
 */
export const NO_STATISTICS: ToolStatsSnapshot = { version: 'none', byTool: new Map() }

interface KeptPieces {
  epoch: number | null
  pieces: EntryPieces | null
}

// Two sets of kept pieces, so that answers (with the statistics) and watches' fingerprints (without)
// computed in turn do not throw each other's away.
const memo: { answers: KeptPieces; fingerprints: KeptPieces } = ((
  globalThis as { __toolroomEntryPieces?: { answers: KeptPieces; fingerprints: KeptPieces } }
).__toolroomEntryPieces ??= {
  answers: { epoch: null, pieces: null },
  fingerprints: { epoch: null, pieces: null },
})

/** The kept pieces of `form` for this epoch, these SideEffectPolicies and these statistics; null while no epoch is known. */
function currentPieces(policies: ResolverInput['policies'], stats: ToolStatsSnapshot, form: EntryForm): EntryPieces | null {
  const epoch = registryEpoch()
  if (epoch === null) return null
  const kept = form === 'digest' ? memo.fingerprints : memo.answers
  if (kept.epoch !== epoch || kept.pieces?.policies !== policies || kept.pieces.stats !== stats || kept.pieces.form !== form) {
    kept.epoch = epoch
    kept.pieces = entryPieces(policies, stats, entryPiecesBudgetBytes(processMemoryLimitBytes()), form)
  }
  return kept.pieces
}

/** What the kept pieces of this epoch hold (benchmarks and the operator's sizing). */
export function keptEntryPieces(): { tools: number; pieces: number; bytes: number; budget: number } | null {
  const pieces = memo.answers.pieces
  if (!pieces) return null
  let count = 0
  for (const { plain, other } of pieces.byTool.values()) {
    count += other.size
    for (const byUnit of plain.values()) count += byUnit.size
  }
  return { tools: pieces.byTool.size, pieces: count, bytes: pieces.bytes, budget: pieces.budget }
}

/**
 * getEffectiveTools as JSON text: the same bytes as `JSON.stringify` of its entries, without building
 * most of them. `statistics`: NO_STATISTICS for the set without its call statistics.
 */
export function getSerializedEffectiveTools(
  kind: 'Agent' | 'Unit',
  row: Row,
  withExcluded: boolean,
  statistics?: ToolStatsSnapshot,
): Promise<SerializedEffectiveSet> {
  return effectiveSetAs('text', kind, row, withExcluded, statistics ?? toolStatsSnapshot())
}

/**
 * The set without its call statistics, each entry as the digest of its text (digestEntries): what a
 * watch's resourceVersion fingerprints, without serializing and hashing the whole answer per subject.
 */
export function getEffectiveSetDigests(kind: 'Agent' | 'Unit', row: Row, withExcluded: boolean): Promise<SerializedEffectiveSet> {
  return effectiveSetAs('digest', kind, row, withExcluded, NO_STATISTICS)
}

/**
 * The set as getSerializedEffectiveTools has it (`text`) and as getEffectiveSetDigests has it
 * (`digests`), from one read of the resolver's input and one resolution: a watch after a change needs
 * both, the answer to send and the fingerprint to version it by (watch-effective-set.ts).
 */
export async function getEffectiveSetTextAndDigests(
  kind: 'Agent' | 'Unit',
  row: Row,
  withExcluded: boolean,
): Promise<{ text: SerializedEffectiveSet; digests: SerializedEffectiveSet }> {
  const [resolved, stats] = await Promise.all([resolvedSet(kind, row), toolStatsSnapshot()])
  return { text: setAs('text', resolved, withExcluded, stats), digests: setAs('digest', resolved, withExcluded, NO_STATISTICS) }
}

/** The set in `form`, its entries with `statistics` (read beside the resolver's input). */
async function effectiveSetAs(
  form: EntryForm,
  kind: 'Agent' | 'Unit',
  row: Row,
  withExcluded: boolean,
  statistics: ToolStatsSnapshot | Promise<ToolStatsSnapshot>,
): Promise<SerializedEffectiveSet> {
  const [resolved, stats] = await Promise.all([resolvedSet(kind, row), statistics])
  return setAs(form, resolved, withExcluded, stats)
}

type ResolvedSet = VerdictSet & { input: ResolverInput }

/** The subject's verdicts, with the Policies that apply to each of an agent's enabled tools. */
async function resolvedSet(kind: 'Agent' | 'Unit', row: Row): Promise<ResolvedSet> {
  const input = await loadSharedResolverInput(kind, row)
  const verdicts = resolveVerdicts(input)
  if (kind === 'Agent') await policiesOnTools(row, verdicts.tools)
  return { ...verdicts, input }
}

function setAs(form: EntryForm, { tools, excluded, unresolved, input }: ResolvedSet, withExcluded: boolean, stats: ToolStatsSnapshot): SerializedEffectiveSet {
  const pieces = currentPieces(input.policies, stats, form)
  return {
    tools: entriesAs(form, tools, input, stats, pieces),
    excluded: withExcluded ? entriesAs(form, excluded, input, stats, pieces) : new SerializedJson([]),
    unresolved,
  }
}
