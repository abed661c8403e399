// Small diffs for the discovery pages: lines of pretty-printed JSON and words of descriptions.
// A longest-common-subsequence table over what is left once the common start and end are cut off;
// tool definitions are small, and a very large middle falls back to "all removed, all added".

export type DiffOp = 'same' | 'removed' | 'added'

export interface DiffPart {
  op: DiffOp
  value: string
}

/** The most table cells computed before giving up on a fine-grained diff. */
const MAX_CELLS = 2_000_000

export function diffSequences(a: readonly string[], b: readonly string[]): DiffPart[] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const head: DiffPart[] = a.slice(0, start).map((value) => ({ op: 'same', value }))
  const tail: DiffPart[] = a.slice(endA).map((value) => ({ op: 'same', value }))
  const midA = a.slice(start, endA)
  const midB = b.slice(start, endB)
  return [...head, ...diffMiddle(midA, midB), ...tail]
}

function diffMiddle(a: readonly string[], b: readonly string[]): DiffPart[] {
  const removed = a.map((value): DiffPart => ({ op: 'removed', value }))
  const added = b.map((value): DiffPart => ({ op: 'added', value }))
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_CELLS) return [...removed, ...added]
  // lengths[i][j]: LCS length of a[i:] and b[j:], in one flat array.
  const width = b.length + 1
  const lengths = new Uint32Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1] + 1 : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
  const parts: DiffPart[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ op: 'same', value: a[i] })
      i++
      j++
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) parts.push({ op: 'removed', value: a[i++] })
    else parts.push({ op: 'added', value: b[j++] })
  }
  while (i < a.length) parts.push({ op: 'removed', value: a[i++] })
  while (j < b.length) parts.push({ op: 'added', value: b[j++] })
  return parts
}

/** JSON with object keys sorted, two-space indented; `undefined` (an absent field) is the empty text. */
export function stableJson(value: unknown): string {
  if (value === undefined) return ''
  return JSON.stringify(sortKeys(value), null, 2)
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
