// The discovery pages' line and word diffs (lib/client/text-diff.ts, on jsdiff).
import { describe, expect, it } from 'vitest'
import { diffLines, diffWords, stableJson, stableYaml, unifiedRows, type DiffPart } from '@/lib/client/text-diff'

const side = (parts: DiffPart[], op: 'removed' | 'added', join = '') =>
  parts
    .filter((p) => p.op !== op)
    .map((p) => p.value)
    .join(join)

describe('line diffs', () => {
  it('marks the changed lines, one part per line, and keeps both texts', () => {
    const before = stableJson({ name: 'search', description: 'Find', inputSchema: { type: 'object' } })
    const after = stableJson({ name: 'search', description: 'Find things', inputSchema: { type: 'object' } })
    const parts = diffLines(before, after)
    expect(parts.filter((p) => p.op !== 'same')).toEqual([
      { op: 'removed', value: '  "description": "Find",' },
      { op: 'added', value: '  "description": "Find things",' },
    ])
    expect(side(parts, 'added', '\n')).toBe(before)
    expect(side(parts, 'removed', '\n')).toBe(after)
  })

  it("prints Apply's changes as YAML, keys sorted, one changed field per changed line", () => {
    const before = { 'spec.description': 'Echo', 'spec.safety.allowedAgents[1]': 'b' }
    const after = { 'spec.safety.allowedAgents[1]': 'c', 'spec.description': 'Echo, louder', 'metadata.labels["app.kubernetes.io/name"]': 'echo' }
    expect(stableYaml(after)).toBe('metadata.labels["app.kubernetes.io/name"]: echo\nspec.description: Echo, louder\nspec.safety.allowedAgents[1]: c')
    expect(stableYaml({ spec: { b: [1, { z: 1, a: 2 }], a: 'x' } })).toBe('spec:\n  a: x\n  b:\n    - 1\n    - a: 2\n      z: 1')
    expect(stableYaml(undefined)).toBe('')
    expect(diffLines(stableYaml(before), stableYaml(after)).filter((p) => p.op !== 'same')).toHaveLength(5)
  })

  it('treats an absent side as no lines', () => {
    expect(diffLines('', 'a\nb')).toEqual([
      { op: 'added', value: 'a' },
      { op: 'added', value: 'b' },
    ])
    expect(diffLines('a', '')).toEqual([{ op: 'removed', value: 'a' }])
    expect(diffLines('', '')).toEqual([])
  })

  it('keeps repeated and empty lines in place', () => {
    const parts = diffLines('x\n\nx\n\nx', 'x\n\ny\n\nx')
    expect(parts.map((p) => `${p.op[0]}${p.value}`)).toEqual(['sx', 's', 'rx', 'ay', 's', 'sx'])
  })

  it('falls back to all removed, all added when the texts are too different to diff finely', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n')
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n')
    const parts = diffLines(a, b)
    expect(parts).toHaveLength(6000)
    expect(parts.slice(0, 3000).every((p) => p.op === 'removed')).toBe(true)
    expect(parts.slice(3000).every((p) => p.op === 'added')).toBe(true)
  })
})

describe('word diffs', () => {
  it('marks changed words and punctuation, and joins back to both texts', () => {
    const before = 'Creates an issue in a repository.'
    const after = 'Creates a ticket in the repository!'
    const parts = diffWords(before, after)
    expect(side(parts, 'added')).toBe(before)
    expect(side(parts, 'removed')).toBe(after)
    expect(parts.filter((p) => p.op === 'removed').map((p) => p.value)).toEqual(['an', 'issue', 'a', '.'])
    expect(parts.filter((p) => p.op === 'added').map((p) => p.value)).toEqual(['a', 'ticket', 'the', '!'])
  })
})

describe('unified rows', () => {
  it('numbers lines on each side and folds unchanged runs beyond the context', () => {
    const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')
    const after = before.replace('line 6', 'line six')
    const rows = unifiedRows(diffLines(before, after), 2)
    expect(rows[0]).toEqual({ kind: 'skipped', count: 3 })
    expect(rows.filter((r) => r.kind === 'line' && r.op !== 'same')).toEqual([
      { kind: 'line', op: 'removed', value: 'line 6', oldLine: 6 },
      { kind: 'line', op: 'added', value: 'line six', newLine: 6 },
    ])
    expect(rows[rows.length - 1]).toEqual({ kind: 'skipped', count: 4 })
  })
})
