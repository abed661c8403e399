// Apply's field-level changes: one entry per changed leaf, at a path a person can read, empty exactly
// when the stored and the asked-for documents are the same JSON, whatever keys they hold.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentChanges, formatPath, valueChanges } from '@/lib/manifests/document-changes'
import { sameJson } from '@/lib/resources/kind-adapters'

const doc = (spec: unknown, labels: Record<string, string> = {}, apiVersion = 'toolroom.dev/v1alpha1') => ({
  apiVersion,
  metadata: { labels, annotations: {} },
  spec,
})

describe('documentChanges', () => {
  it('names each changed, added and removed leaf with its before and after', () => {
    const before = doc({ description: 'Old', safety: { allowedAgents: ['a', 'b'] }, sideEffects: { level: 'read_only' } }, { team: 'x' })
    const after = doc(
      { description: 'New', safety: { allowedAgents: ['a', 'c', 'd'], rateLimit: { callsPerMinute: 5 } } },
      { team: 'x', 'app.kubernetes.io/name': 'crm' },
    )
    expect(documentChanges(before, after)).toEqual(
      expect.arrayContaining([
        { path: 'spec.description', before: 'Old', after: 'New' },
        { path: 'spec.safety.allowedAgents[1]', before: 'b', after: 'c' },
        { path: 'spec.safety.allowedAgents[2]', after: 'd' },
        { path: 'spec.safety.rateLimit.callsPerMinute', after: 5 },
        { path: 'spec.sideEffects.level', before: 'read_only' },
        { path: 'metadata.labels["app.kubernetes.io/name"]', after: 'crm' },
      ]),
    )
    expect(documentChanges(before, after)).toHaveLength(6)
    expect(documentChanges(before, { ...before, apiVersion: 'joch.dev/v1alpha1' })).toEqual([
      { path: 'apiVersion', before: 'toolroom.dev/v1alpha1', after: 'joch.dev/v1alpha1' },
    ])
  })

  it('goes down to leaves when a container is replaced, and keeps empty containers as leaves', () => {
    expect(valueChanges({ a: { b: 1, c: [2] } }, { a: 'flat' })).toEqual([
      { path: 'a.b', before: 1 },
      { path: 'a.c[0]', before: 2 },
      { path: 'a', after: 'flat' },
    ])
    expect(valueChanges({ a: [1] }, { a: { x: 1 } })).toEqual([
      { path: 'a[0]', before: 1 },
      { path: 'a.x', after: 1 },
    ])
    expect(valueChanges({}, { a: {}, b: [] })).toEqual([
      { path: 'a', after: {} },
      { path: 'b', after: [] },
    ])
    expect(valueChanges({ a: null }, { a: 0 })).toEqual([{ path: 'a', before: null, after: 0 }])
  })

  it('sees keys named like Object.prototype members', () => {
    expect(valueChanges({}, { constructor: 'x', toString: 'y', __proto__x: 1 })).toHaveLength(3)
    expect(valueChanges(JSON.parse('{"__proto__": {"polluted": 1}}'), {})).toEqual([{ path: '__proto__.polluted', before: 1 }])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(valueChanges({ hasOwnProperty: 1 }, { hasOwnProperty: 2 })).toEqual([{ path: 'hasOwnProperty', before: 1, after: 2 }])
  })

  it('is empty exactly when both sides are the same JSON', () => {
    const json = fc.jsonValue({ maxDepth: 4 })
    const mutate = (value: unknown): fc.Arbitrary<unknown> => fc.oneof(fc.constant(value), json)
    fc.assert(
      fc.property(
        json.chain((a) => mutate(a).map((b) => [a, b] as const)),
        ([a, b]) => {
          const changes = valueChanges({ v: a }, { v: b })
          expect(changes.length === 0).toBe(sameJson(JSON.parse(JSON.stringify({ v: a })), JSON.parse(JSON.stringify({ v: b }))))
          for (const c of changes) expect(c.path.startsWith('v')).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('formatPath', () => {
  it('writes dotted paths with indexes and quotes keys that are not plain names', () => {
    expect(formatPath(['spec', 'safety', 'allowedAgents', 1])).toBe('spec.safety.allowedAgents[1]')
    expect(formatPath(['spec', 'toggles', 'zendesk.merge_tickets'])).toBe('spec.toggles["zendesk.merge_tickets"]')
    expect(formatPath(['a', 'with space', 'quote"d', 'x-y'])).toBe('a["with space"]["quote\\"d"].x-y')
    expect(formatPath([0, 'a'])).toBe('[0].a')
  })
})
