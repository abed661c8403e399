// The fast path of Policy conditions (lib/policy/compile-fast-condition.ts) against @bufbuild/cel's
// interpreter, differentially: over random expressions of the subset (and a little beyond it) and
// random bindings (missing fields, null, int against double, numbers past 2^53, strings outside the
// BMP, values of the wrong type), whatever the fast path decides must be what the interpreter gives,
// and a compiled condition (fast path, then interpreter) must give exactly the interpreter's outcome,
// its error messages included: a Policy still fails closed with the same words. Conditions compiled
// together, as an epoch's Policies are, share their common sub-expressions: each still gets exactly
// its own outcome, call after call.
import { isCelError, isCelList, isCelMap } from '@bufbuild/cel'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileFastCondition, compileFastExpression, fastConditionSet, type PlainBindings, UNDECIDED } from '@/lib/policy/compile-fast-condition'
import { compileCondition, compileInterpretedCondition, type ConditionBindings, conditionInput } from '@/lib/policy/policy-condition'

const PATHS = [
  'args',
  'args.a',
  'args.b',
  'args.c',
  'args.a.x',
  'args.b.y',
  'args.list',
  'args.missing',
  'agent.name',
  'agent.labels',
  'agent.labels.team',
  'agent.units',
  'tool.id',
  'tool.labels.tier',
  'person',
  'person.email',
  'person.groups',
  'person.claims.org',
]
const SELECTIONS = PATHS.filter((p) => p.includes('.'))

const LITERALS = [
  '0',
  '1',
  '-1',
  '2',
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '1u',
  '1.0',
  '1.5',
  '-0.0',
  '2.0',
  '1e300',
  '9007199254740992.0',
  '""',
  '"a"',
  '"ab"',
  '"b"',
  '"é"',
  '"😀"',
  '"\\uffff"',
  'true',
  'false',
  'null',
  'b"a"',
  '{"x": 1}',
]

const PATTERNS = ['"^a.*"', '"b"', '"^$"', '"(a+)+$"', '"[😀é]"', '"\\\\d"']

/** Expressions over the subset, and a few terms beyond it (uint and bytes literals, `now`, lowerAscii) that must go to the interpreter. */
const { expr, bool } = fc.letrec<{ expr: string; bool: string; term: string }>((tie) => ({
  expr: fc.oneof({ depthSize: 'small', maxDepth: 4, withCrossShrink: true }, tie('term'), tie('bool')),
  term: fc.oneof(
    { depthSize: 'small', maxDepth: 4, withCrossShrink: true },
    fc.constantFrom(...LITERALS),
    fc.constantFrom(...PATHS),
    tie('expr').map((e) => `size(${e})`),
    tie('expr').map((e) => `${e}.size()`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `[${a}, ${b}]`),
    fc.tuple(tie('bool'), tie('expr'), tie('expr')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
    fc.constantFrom('now', 'args.a.lowerAscii()', 'args[0]'),
  ),
  bool: fc.oneof(
    { depthSize: 'small', maxDepth: 4, withCrossShrink: true },
    fc.constantFrom('true', 'false'),
    fc.constantFrom(...SELECTIONS).map((p) => `has(${p})`),
    fc.tuple(tie('expr'), fc.constantFrom('==', '!=', '<', '<=', '>', '>=', 'in'), tie('expr')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('expr').map((e) => `!${e}`),
    fc.tuple(tie('expr'), fc.constantFrom('&&', '||'), tie('expr')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie('expr'), fc.constantFrom('startsWith', 'endsWith', 'contains'), tie('expr')).map(([a, f, b]) => `${a}.${f}(${b})`),
    fc.tuple(tie('expr'), fc.constantFrom(...PATTERNS)).map(([a, p]) => `${a}.matches(${p})`),
  ),
}))

const text = fc.oneof(fc.constantFrom('', 'a', 'ab', 'b', 'é', '😀', '\uffff', '\ud83d', 'x'), fc.string({ maxLength: 4, unit: 'binary' }))
const number = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, 1.5, -0, 2 ** 53, 2 ** 53 + 2, 1e300, Number.NaN, Number.POSITIVE_INFINITY, 9223372036854775807),
  fc.double(),
)
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 4, withCrossShrink: true },
    number,
    text,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'x', 'y', 'team'), tie('json'), { maxKeys: 3, noNullPrototype: true }),
  ),
}))
const labels = fc.dictionary(fc.constantFrom('team', 'tier'), text, { maxKeys: 2, noNullPrototype: true })
const bindings: fc.Arbitrary<ConditionBindings> = fc.record({
  args: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'list'), json, { maxKeys: 4, noNullPrototype: true }),
  agent: fc.record({ namespace: text, name: text, labels, units: fc.array(text, { maxLength: 2 }) }),
  tool: fc.record({
    id: text,
    level: fc.constantFrom('read_only', 'financial'),
    labels,
    source: fc.record({ kind: fc.constant('Tool'), namespace: fc.option(text), name: text }),
  }),
  person: fc.option(
    fc.record({
      id: text,
      issuer: text,
      displayName: text,
      email: fc.option(text),
      groups: fc.array(text, { maxLength: 2 }),
      claims: fc.dictionary(fc.constantFrom('org', 'groups'), json, { maxKeys: 2, noNullPrototype: true }),
    }),
  ),
  now: fc.constant(new Date('2026-11-27T12:00:00Z')),
})

const baseCall: ConditionBindings = {
  args: {},
  agent: { namespace: 'n', name: 'a', labels: {}, units: [] },
  tool: { id: 't', level: 'read_only', labels: {}, source: { kind: 'Tool', namespace: null, name: 't' } },
  person: null,
  now: new Date('2026-11-27T12:00:00Z'),
}

/** An interpreter's value in the fast path's form: lists as arrays, maps as plain objects. */
function plainValue(v: unknown): unknown {
  if (isCelList(v)) return [...v].map(plainValue)
  if (isCelMap(v)) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plainValue(x)]))
  return v
}

const show = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x))

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]))
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const [ka, kb] = [Object.keys(a), Object.keys(b)]
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same((a as never)[k], (b as never)[k]))
  }
  return Object.is(a, b)
}

/** A condition's outcome as a Policy sees it: the bool, or the words of its error. */
function outcome(run: () => unknown): unknown {
  try {
    const r = run()
    return isCelError(r) ? `error: ${r.message}` : plainValue(r)
  } catch (e) {
    return `threw: ${e instanceof Error ? e.message : String(e)}`
  }
}

describe('the fast path of Policy conditions', () => {
  it('agrees with the interpreter whenever it decides, and a compiled condition gives exactly the interpreter outcome', () => {
    let decided = 0
    let runs = 0
    fc.assert(
      fc.property(expr, bindings, (when, b) => {
        const interpreted = outcome(() => compileInterpretedCondition(when)(conditionInput(b)))
        const fast = compileFastExpression(when)
        if (fast) {
          const value = fast(b as PlainBindings)
          if (value !== UNDECIDED) {
            decided++
            expect(
              typeof interpreted === 'string' && /^(error|threw):/.test(interpreted),
              `${when} decided ${show(value)}, the interpreter: ${show(interpreted)}`,
            ).toBe(false)
            expect(same(value, interpreted), `${when}: fast ${show(value)}, interpreter ${show(interpreted)}`).toBe(true)
          }
        }
        expect(outcome(() => compileCondition(when)(conditionInput(b)))).toEqual(interpreted)
        runs++
      }),
      { numRuns: 2000 },
    )
    // Not vacuous: most random expressions mix types and end in errors, but a good share is decided here.
    expect(decided).toBeGreaterThan(runs / 5)
    console.info(`fast path: ${decided} of ${runs} random conditions decided without the interpreter`)
  }, 120_000)

  it('gives each condition of a set compiled together its own outcome, its shared sub-expressions evaluated once per call', () => {
    let sharing = 0
    fc.assert(
      fc.property(
        fc.array(bool, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom('&&', '||'), bool), { minLength: 2, maxLength: 4 }),
        fc.array(bindings, { minLength: 2, maxLength: 3 }),
        (common, tails, calls) => {
          // Conditions that share terms (the same sub-expression with different outcomes elsewhere),
          // whole conditions repeated, and the terms on their own: as an epoch's Policies would.
          const whens = [
            ...tails.map(([op, tail], i) => `(${common[i % common.length]} ${op} ${tail})`),
            ...tails.map(([op, tail], i) => `(${tail} ${op} ${common[i % common.length]})`),
            ...common,
            `(${common[0]} && ${tails[0][1]})`,
          ]
          const set = fastConditionSet()
          const conditions = whens.map((when) => compileCondition(when, set))
          const expressions = whens.map((when) => set.expression(when))
          if (set.stats.shared > 0) sharing++
          // One call after another, each with its own bindings: nothing remembered leaks into the next.
          for (const b of calls) {
            const input = conditionInput(b)
            for (const [i, when] of whens.entries()) {
              const interpreted = outcome(() => compileInterpretedCondition(when)(conditionInput(b)))
              expect(
                outcome(() => conditions[i](input)),
                when,
              ).toEqual(interpreted)
              const value = expressions[i]?.(input.plain)
              if (value !== undefined && value !== UNDECIDED)
                expect(same(value, interpreted), `${when}: fast ${show(value)}, interpreter ${show(interpreted)}`).toBe(true)
            }
          }
        },
      ),
      { numRuns: 200 },
    )
    expect(sharing).toBeGreaterThan(150)
  }, 120_000)

  it('compares ints, doubles and strings as the interpreter does, at the edges (2^53, int64, -0, NaN, past the BMP)', () => {
    const literal = fc.constantFrom(
      '9007199254740992',
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
      '0',
      '-0.0',
      '9007199254740993.0',
      '1e19',
      '"\\uffff"',
      '"😀"',
      '"é"',
      '""',
    )
    const scalar = fc.constantFrom<unknown>(
      2 ** 53,
      2 ** 53 + 2,
      9223372036854775807,
      -9223372036854775808,
      0,
      -0,
      Number.NaN,
      1e19,
      '\uffff',
      '😀',
      'é',
      '',
      true,
      null,
    )
    fc.assert(
      fc.property(literal, fc.constantFrom('==', '!=', '<', '<=', '>', '>=', 'in'), scalar, fc.boolean(), (lit, op, value, swap) => {
        const when = swap ? `args.a ${op} ${op === 'in' ? `[${lit}]` : lit}` : `${lit} ${op} ${op === 'in' ? '[args.a]' : 'args.a'}`
        const b = { ...baseCall, args: { a: value } }
        const interpreted = outcome(() => compileInterpretedCondition(when)(conditionInput(b)))
        const decided = compileFastCondition(when)!(b)
        if (decided !== undefined) expect(decided, when).toBe(interpreted)
        expect(
          outcome(() => compileCondition(when)(conditionInput(b))),
          when,
        ).toEqual(interpreted)
      }),
      { numRuns: 500 },
    )
  })

  it('decides the common conditions without the interpreter, and leaves the rest to it', () => {
    const call: ConditionBindings = {
      args: { amount: 60000, to: 'ops@example.com', repo: 'acme/site', namespace: 'prod', tags: ['x'] },
      agent: { namespace: 'finance', name: 'ap-bot', labels: { team: 'ap' }, units: ['ap', 'finance'] },
      tool: { id: 'stripe.create_refund', level: 'financial', labels: {}, source: { kind: 'Tool', namespace: 'finance', name: 'r' } },
      person: null,
      now: new Date('2026-11-27T12:00:00Z'),
    }
    const decide = (when: string) => compileFastCondition(when)?.(call)
    expect(decide('has(args.amount) && args.amount > 50000')).toBe(true)
    expect(decide('args.namespace == "prod" && tool.id.startsWith("kube.")')).toBe(false)
    expect(decide('!args.repo.startsWith("acme/")')).toBe(false)
    expect(decide('agent.labels.team == "ap" && !args.to.endsWith("@example.com")')).toBe(false)
    expect(decide('"finance" in agent.units && size(args.tags) >= 1 && args.to.matches("^[a-z]+@")')).toBe(true)
    expect(decide('person == null || person.email == "x"')).toBe(true)
    // A missing field is an error, which only the interpreter words.
    expect(decide('args.currency == "eur"')).toBeUndefined()
    // Outside the subset: compiled for the interpreter alone.
    expect(compileFastCondition('now.getDayOfWeek() in [0, 6]')).toBeNull()
    expect(compileFastCondition('args.tags.exists(t, t == "x")')).toBeNull()
    expect(compileFastCondition('args.amount + 1 > 2')).toBeNull()
  })
})
