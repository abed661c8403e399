// The Kubernetes label selector parser and matcher: the syntax kubectl takes, its meaning (`!=` and
// `notin` match resources without the key), hostile input answered with a position, never a throw.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  formatLabelSelector,
  type LabelRequirement,
  type LabelSelector,
  matchesLabelSelector,
  MAX_SELECTOR_LENGTH,
  parseLabelSelector,
  selectsByPresence,
} from '@/lib/labels/label-selector'

const parse = (text: string) => {
  const parsed = parseLabelSelector(text)
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message}`)
  return parsed.selector
}
const refused = (text: string) => {
  const parsed = parseLabelSelector(text)
  if (parsed.ok) throw new Error(`${text} was accepted`)
  return parsed
}

describe('parseLabelSelector', () => {
  it('reads every operator of the Kubernetes syntax', () => {
    expect(parse('a=b,c!=d,e in (x,y),!f').requirements).toEqual([
      { key: 'a', operator: 'equals', values: ['b'] },
      { key: 'c', operator: 'notEquals', values: ['d'] },
      { key: 'e', operator: 'in', values: ['x', 'y'] },
      { key: 'f', operator: 'doesNotExist', values: [] },
    ])
    expect(parse('app.kubernetes.io/name==web, tier notin ( a , b ),owner').requirements).toEqual([
      { key: 'app.kubernetes.io/name', operator: 'equals', values: ['web'] },
      { key: 'tier', operator: 'notIn', values: ['a', 'b'] },
      { key: 'owner', operator: 'exists', values: [] },
    ])
    expect(parse('').requirements).toEqual([])
    expect(parse('   ').requirements).toEqual([])
    expect(parse('a=').requirements).toEqual([{ key: 'a', operator: 'equals', values: [''] }])
    expect(parse('in=notin').requirements).toEqual([{ key: 'in', operator: 'equals', values: ['notin'] }])
  })

  it('refuses what is not a selector, saying where', () => {
    expect(refused('a=b c')).toMatchObject({ position: 4, message: expect.stringContaining('","') })
    expect(refused('a in x').message).toContain('"("')
    expect(refused('a in ()').message).toContain('empty')
    expect(refused('a in (x').message).toContain('")"')
    expect(refused('a>1').message).toContain('not supported')
    expect(refused(',a').message).toContain('label key')
    expect(refused('a,').message).toContain('label key')
    expect(refused('!').message).toContain('label key')
    expect(refused('-a=b').message).toContain('not a label key')
    expect(refused(`a=${'v'.repeat(64)}`).message).toContain('at most 63')
    expect(refused('x'.repeat(MAX_SELECTOR_LENGTH + 1)).message).toContain(`at most ${MAX_SELECTOR_LENGTH}`)
    expect(refused(Array.from({ length: 51 }, (_, i) => `k${i}`).join(',')).message).toContain('at most 50')
    expect(refused(`a in (${Array.from({ length: 101 }, (_, i) => `v${i}`).join(',')})`).message).toContain('at most 100')
  })

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200, unit: fc.constantFrom('a', 'b', '=', '!', '(', ')', ',', ' ', 'in', 'notin', '/', '.', '-', '\u0000', 'é', '>') }),
        (text) => {
          const parsed = parseLabelSelector(text)
          if (!parsed.ok) {
            expect(parsed.position).toBeGreaterThanOrEqual(0)
            expect(parsed.position).toBeLessThanOrEqual(text.length)
            expect(parsed.message.length).toBeGreaterThan(0)
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})

const key = fc.constantFrom('a', 'b', 'team', 'app.kubernetes.io/name', 'x-y_z.1')
const value = fc.constantFrom('', 'v', 'w', 'prod', 'x.y-z_1')
const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.record({ key, operator: fc.constantFrom('equals' as const, 'notEquals' as const), values: value.map((v) => [v]) }),
  fc.record({ key, operator: fc.constantFrom('in' as const, 'notIn' as const), values: fc.uniqueArray(value, { minLength: 1, maxLength: 4 }) }),
  fc.record({ key, operator: fc.constantFrom('exists' as const, 'doesNotExist' as const), values: fc.constant<string[]>([]) }),
)
const selector: fc.Arbitrary<LabelSelector> = fc.array(requirement, { maxLength: 6 }).map((requirements) => ({ requirements }))
const labels = fc.dictionary(key, value, { maxKeys: 4 })

describe('matchesLabelSelector', () => {
  it('means what Kubernetes means', () => {
    const m = (text: string, l: Record<string, string>) => matchesLabelSelector(parse(text), l)
    expect(m('a=b', { a: 'b' })).toBe(true)
    expect(m('a=b', { a: 'c' })).toBe(false)
    expect(m('a=b', {})).toBe(false)
    expect(m('a!=b', {})).toBe(true)
    expect(m('a!=b', { a: 'b' })).toBe(false)
    expect(m('a in (x,y)', { a: 'y' })).toBe(true)
    expect(m('a notin (x,y)', {})).toBe(true)
    expect(m('a notin (x,y)', { a: 'x' })).toBe(false)
    expect(m('a', { a: '' })).toBe(true)
    expect(m('!a', { a: '' })).toBe(false)
    expect(m('', { anything: 'x' })).toBe(true)
    // Keys are looked up as own properties: a selector cannot reach Object.prototype.
    expect(m('constructor', {})).toBe(false)
    expect(m('toString!=x', {})).toBe(true)
  })

  it('is the conjunction of its requirements', () => {
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        expect(matchesLabelSelector(s, l)).toBe(s.requirements.every((r) => matchesLabelSelector({ requirements: [r] }, l)))
      }),
    )
  })

  it('negative operators are the complements of the positive ones', () => {
    fc.assert(
      fc.property(key, fc.uniqueArray(value, { minLength: 1, maxLength: 3 }), labels, (k, values, l) => {
        const one = (operator: LabelRequirement['operator']) => matchesLabelSelector({ requirements: [{ key: k, operator, values }] }, l)
        expect(one('notIn')).toBe(!one('in'))
        expect(matchesLabelSelector({ requirements: [{ key: k, operator: 'doesNotExist', values: [] }] }, l)).toBe(
          !matchesLabelSelector({ requirements: [{ key: k, operator: 'exists', values: [] }] }, l),
        )
      }),
    )
  })
})

describe('formatLabelSelector', () => {
  it('prints what parses back to the same selector', () => {
    fc.assert(
      fc.property(selector, (s) => {
        expect(parse(formatLabelSelector(s))).toEqual(s)
      }),
    )
  })
})

describe('selectsByPresence', () => {
  it('is true only when some requirement needs a label to be there', () => {
    expect(selectsByPresence(parse('team=a'))).toBe(true)
    expect(selectsByPresence(parse('team'))).toBe(true)
    expect(selectsByPresence(parse('!team,env!=prod'))).toBe(false)
    expect(selectsByPresence(parse(''))).toBe(false)
  })
})
