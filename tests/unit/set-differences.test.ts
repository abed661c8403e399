// Two effective sets side by side (lib/effective-tools/compare-effective-sets.ts, setDifferences):
// only enabled entries count as "can call"; the other side's entry of the name says why it cannot.
import { describe, expect, it } from 'vitest'
import { setDifferences } from '@/lib/effective-tools/compare-effective-sets'
import type { EffectiveTool, EffectiveToolSet, ToolState } from '@/lib/effective-tools/types'

const entry = (name: string, state: ToolState = 'enabled', provenance = 'grant', requiresApproval = false) =>
  ({ name, state, provenance, requiresApproval, reason: state === 'enabled' ? null : `${state} here` }) as EffectiveTool
const set = (tools: EffectiveTool[], excluded: EffectiveTool[] = []): EffectiveToolSet => ({ tools, excluded, unresolved: [] })

describe('set differences', () => {
  it('list what only one side can call, with what the other holds of the name, and what both can call differently', () => {
    const left = set([entry('a'), entry('b'), entry('c'), entry('d', 'enabled', 'connector:zendesk'), entry('e')])
    const right = set(
      [entry('a'), entry('b', 'disabled'), entry('d', 'enabled', 'grant'), entry('e', 'enabled', 'grant', true), entry('f', 'enabled', 'mcp:docs')],
      [entry('c', 'denied'), entry('c', 'shadowed', 'mcp:x')],
    )
    const diff = setDifferences(left, right)
    expect(diff.onlyLeft.map((d) => `${d.tool} ${d.other?.state ?? 'absent'}`)).toEqual(['b disabled', 'c denied'])
    expect(diff.onlyRight.map((d) => `${d.tool} ${d.has.provenance} ${d.other?.state ?? 'absent'}`)).toEqual(['f mcp:docs absent'])
    expect(diff.differing.map((d) => d.tool)).toEqual(['d', 'e'])
    expect(diff.same).toBe(1)
  })

  it('of a set with itself is empty', () => {
    const s = set([entry('a'), entry('b', 'disabled')], [entry('c', 'denied')])
    expect(setDifferences(s, s)).toEqual({ onlyLeft: [], onlyRight: [], differing: [], same: 1 })
  })
})
