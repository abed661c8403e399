// Text PostgreSQL cannot hold: found by path, or rewritten so that it can be stored.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isStorableText, storableJson, storableText, unstorableFields } from '@/lib/storage/storable-text'

describe('storable text', () => {
  it('rewrites NUL and unpaired surrogates only', () => {
    expect(storableText('a\u0000b')).toBe('a\u2400b')
    expect(storableText('x\ud800y\udc00')).toBe('x\ufffdy\ufffd')
    expect(storableText('pair \ud83d\ude00 é')).toBe('pair \ud83d\ude00 é')
    const clean = { a: ['b', { c: 1 }] }
    expect(storableJson(clean)).toBe(clean)
    expect(storableJson({ 'k\u0000': ['\ud800', 2, null] })).toEqual({ 'k\u2400': ['\ufffd', 2, null] })
  })

  it('names where unstorable text is, skipping opaque fields', () => {
    const body = { calls: [{ errorMessage: 'a\u0000', args: { q: '\u0000' } }], ['bad\u0000key']: 1 }
    expect(unstorableFields(body)).toEqual(['calls[0].errorMessage', 'calls[0].args.q', '(key) bad\u2400key'])
    expect(unstorableFields(body, ['calls[*].args'])).toEqual(['calls[0].errorMessage', '(key) bad\u2400key'])
    expect(unstorableFields('\u0000')).toEqual(['(root)'])
  })

  const text = fc.string({ unit: 'binary', maxLength: 12 })
  const json = fc.dictionary(
    text,
    fc.oneof(text, fc.integer(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 })),
    { maxKeys: 4 },
  )

  it('always gives storable JSON, leaves storable JSON as it is, and is idempotent', () => {
    fc.assert(
      fc.property(json, fc.string({ unit: 'binary', maxLength: 30 }), (json, text) => {
        const value = { json, text, [text]: text }
        const stored = storableJson(value)
        expect(unstorableFields(stored)).toEqual([])
        expect(storableJson(stored)).toEqual(stored)
        if (unstorableFields(value).length === 0) expect(stored).toBe(value)
        expect(isStorableText(storableText(text))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})
