// Small diffs for the discovery pages: lines of pretty-printed JSON and words of descriptions, by
// jsdiff's Myers diff over those tokens. Texts too different to diff within MAX_EDITS fall back to
// "all removed, all added".
import { diffArrays } from 'diff'
import { stringify } from 'yaml'

export type DiffOp = 'same' | 'removed' | 'added'

export interface DiffPart {
  op: DiffOp
  value: string
}

/** The most insertions and deletions looked for before giving up on a fine-grained diff. */
const MAX_EDITS = 1_000

/** One part per token, in order: joining the values of the parts that are not `added` gives `a` back. */
function diffSequences(a: readonly string[], b: readonly string[]): DiffPart[] {
  const changes = diffArrays([...a], [...b], { maxEditLength: MAX_EDITS })
  if (!changes) return [...a.map((value): DiffPart => ({ op: 'removed', value })), ...b.map((value): DiffPart => ({ op: 'added', value }))]
  return changes.flatMap((change) => {
    const op: DiffOp = change.added ? 'added' : change.removed ? 'removed' : 'same'
    return change.value.map((value) => ({ op, value }))
  })
}

/** JSON with object keys sorted, two-space indented; `undefined` (an absent field) is the empty text. */
export function stableJson(value: unknown): string {
  if (value === undefined) return ''
  return JSON.stringify(sortKeys(value), null, 2)
}

/** YAML with mapping keys sorted, as manifests are written; `undefined` (an absent field) is the empty text. */
export function stableYaml(value: unknown): string {
  if (value === undefined) return ''
  return stringify(sortKeys(value), { lineWidth: 0 }).replace(/\n$/, '')
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    )
  return value
}

const lines = (text: string) => (text === '' ? [] : text.split('\n'))

export function diffLines(before: string, after: string): DiffPart[] {
  return diffSequences(lines(before), lines(after))
}

/** Words, spaces and punctuation, so joining the parts gives the texts back. */
export function diffWords(before: string, after: string): DiffPart[] {
  const words = (text: string) => text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? []
  return diffSequences(words(before), words(after))
}

export interface NumberedLine extends DiffPart {
  /** Line number in the old text (removed and unchanged lines). */
  oldLine?: number
  /** Line number in the new text (added and unchanged lines). */
  newLine?: number
}

export type UnifiedRow = ({ kind: 'line' } & NumberedLine) | { kind: 'skipped'; count: number }

/** A unified view: changed lines with `context` unchanged lines around them, longer runs folded. */
export function unifiedRows(parts: DiffPart[], context = 3): UnifiedRow[] {
  let oldLine = 0
  let newLine = 0
  const numbered: NumberedLine[] = parts.map((p) => ({
    ...p,
    ...(p.op !== 'added' ? { oldLine: ++oldLine } : {}),
    ...(p.op !== 'removed' ? { newLine: ++newLine } : {}),
  }))
  const near = numbered.map(() => false)
  numbered.forEach((p, i) => {
    if (p.op === 'same') return
    for (let k = Math.max(0, i - context); k <= Math.min(numbered.length - 1, i + context); k++) near[k] = true
  })
  const rows: UnifiedRow[] = []
  let skipped = 0
  numbered.forEach((p, i) => {
    if (near[i]) {
      if (skipped) rows.push({ kind: 'skipped', count: skipped })
      skipped = 0
      rows.push({ kind: 'line', ...p })
    } else skipped++
  })
  if (skipped) rows.push({ kind: 'skipped', count: skipped })
  return rows
}
