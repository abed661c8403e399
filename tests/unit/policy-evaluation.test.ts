// Policy conditions and their evaluation, pure: what a condition may say (names, cost), that `matches`
// runs on RE2, which Policies reach a call, and that every outcome only tightens and an error denies.
import { RE2JS } from '@bufbuild/re2'
import { describe, expect, it, vi } from 'vitest'
import { policySpec } from '@/lib/manifests/specs/policy'
import { fastConditionSet } from '@/lib/policy/compile-fast-condition'
import { type CompiledPolicy, compilePolicy, evaluatePolicies, evaluateReaching, type PolicyCall } from '@/lib/policy/evaluate-policies'
import { conditionProblems } from '@/lib/policy/policy-condition'

const call = (over: Partial<PolicyCall> = {}): PolicyCall => ({
  agent: { namespace: 'finance', name: 'ap-bot', labels: { team: 'ap' }, units: ['ap', 'finance'] },
  tool: { id: 'stripe.create_refund', level: 'financial', labels: {}, source: { kind: 'Tool', namespace: 'finance', name: 'stripe.create_refund' } },
  args: { amount: 60000 },
  person: null,
  now: new Date('2026-11-30T10:00:00Z'),
  ...over,
})

const policy = (spec: unknown, namespace = 'finance', name = 'p') => compilePolicy(namespace, name, policySpec.parse(spec))

describe('conditions', () => {
  it('refuse unknown names, unbounded string functions and nested list macros; accept the variables', () => {
    expect(conditionProblems('agent.labels.team == "ap" && tool.level == "financial" && person == null && now < now + duration("1s")')).toEqual([])
    expect(conditionProblems('request.user == "x"').map((p) => p.rule)).toEqual(['cel-unknown-variable'])
    expect(conditionProblems('args.to.replace("a", args.to) == ""').map((p) => p.rule)).toEqual(['cel-unknown-function'])
    expect(conditionProblems('args.xs.all(x, args.xs.exists(y, x == y))').map((p) => p.rule)).toEqual(['cel-cost'])
    expect(conditionProblems('args.a ==').map((p) => p.rule)).toEqual(['cel-syntax'])
  })

  it('run `matches` on RE2, never on a backtracking engine, whatever the pattern', () => {
    const re2 = vi.spyOn(RE2JS.prototype, 'test')
    const backtracking = vi.spyOn(RegExp.prototype, 'exec')
    try {
      const p = policy({ selector: { tools: ['stripe.*'] }, rules: [{ when: 'args.memo.matches("^(a+)+$")', effect: 'deny', reason: 'x' }] })
      const decision = evaluatePolicies([p], call({ args: { memo: `${'a'.repeat(5000)}!` } }))
      expect(decision.trace[0].outcome).toBe('not_matched')
      expect(re2).toHaveBeenCalled()
      expect(backtracking.mock.contexts.map((r) => (r as RegExp).source)).not.toContain('^(a+)+$')
    } finally {
      re2.mockRestore()
      backtracking.mockRestore()
    }
  })
})

describe('evaluation', () => {
  it('reaches by tool glob, agent labels and namespace (its own and those it names)', () => {
    const spec = { selector: { tools: ['stripe.*'], agents: { matchLabels: { team: 'ap' } } }, rules: [{ when: 'true', effect: 'deny', reason: 'no' }] }
    expect(evaluatePolicies([policy(spec)], call()).deny).toMatchObject({ policy: 'finance/p', rule: 0 })
    expect(evaluatePolicies([policy(spec)], call({ tool: { ...call().tool, id: 'github.create_issue' } })).trace).toEqual([])
    expect(evaluatePolicies([policy(spec)], call({ agent: { ...call().agent, labels: {} } })).trace).toEqual([])
    expect(evaluatePolicies([policy(spec, 'ops')], call()).trace).toEqual([])
    const named = { ...spec, selector: { ...spec.selector, agents: { ...spec.selector.agents, namespaces: ['finance'] } } }
    expect(evaluatePolicies([policy(named, 'ops')], call()).deny).toMatchObject({ policy: 'ops/p' })
  })

  it('collects every tightening, with the values each rule compared', () => {
    const p = policy({
      selector: { tools: ['stripe.create_refund'] },
      rules: [
        { when: 'has(args.amount) && args.amount > 50000', effect: 'require_approval', reason: 'big' },
        { when: 'args.amount > 10', effect: 'limit', limit: { perMinute: 2 }, reason: 'slow' },
        { when: 'true', effect: 'redact', redact: { fields: ['args.memo'] }, reason: 'private' },
        { when: 'args.amount > 90000', effect: 'deny', reason: 'huge' },
      ],
    })
    const decision = evaluatePolicies([p], call())
    expect(decision).toMatchObject({
      deny: null,
      approvals: [{ policy: 'finance/p', rule: 0, reason: 'big' }],
      limits: [{ rule: 1, perMinute: 2 }],
      redactFields: ['args.memo'],
    })
    expect(decision.trace.map((t) => [t.rule, t.outcome, t.values])).toEqual([
      [0, 'matched', { 'args.amount': 60000 }],
      [1, 'matched', { 'args.amount': 60000 }],
      [2, 'matched', {}],
      [3, 'not_matched', { 'args.amount': 60000 }],
    ])
  })

  it('fails closed: a missing field or a result that is not a bool denies, naming the policy and rule', () => {
    const p = policy({
      selector: { tools: ['stripe.*'] },
      rules: [
        { when: 'args.currency == "eur"', effect: 'require_approval', reason: 'euro' },
        { when: 'args.amount', effect: 'deny', reason: 'not a bool' },
      ],
    })
    const decision = evaluatePolicies([p], call())
    expect(decision.deny).toMatchObject({ policy: 'finance/p', rule: 0, error: expect.stringContaining('currency') })
    expect(decision.trace.map((t) => t.outcome)).toEqual(['error', 'error'])
  })

  it('reads `now` in a time zone', () => {
    const p = policy({ selector: { tools: ['stripe.*'] }, rules: [{ when: 'now.getDayOfWeek("Europe/Berlin") in [0, 6]', effect: 'deny', reason: 'weekend' }] })
    expect(evaluatePolicies([p], call({ now: new Date('2026-11-29T22:59:00Z') })).deny).not.toBeNull() // Sunday 23:59 in Berlin
    expect(evaluatePolicies([p], call({ now: new Date('2026-11-29T23:00:00Z') })).deny).toBeNull() // Monday 00:00 in Berlin
  })

  it("converts a call's arguments for CEL at most once, however many rules read them, and not at all on the fast path (docs/design/policy.md#cost-per-call)", () => {
    const listings = (when: (i: number) => string) => {
      let listed = 0
      const counted = (value: Record<string, unknown>): Record<string, unknown> =>
        new Proxy(value, {
          ownKeys: (target) => {
            listed++
            return Reflect.ownKeys(target)
          },
        })
      const policies = Array.from({ length: 20 }, (_, i) =>
        policy({ selector: { tools: ['stripe.*'] }, rules: [{ when: when(i), effect: 'deny', reason: `r${i}` }] }, 'finance', `p${i}`),
      )
      const decision = evaluatePolicies(policies, call({ args: counted({ amount: 5, customer: counted({ id: 'c-none' }) }) }))
      expect(decision.trace).toHaveLength(20)
      expect(decision.deny).toBeNull()
      return listed
    }
    // Field reads, comparisons and && are the fast path's: the arguments are read as they are.
    expect(listings((i) => `args.customer.id == "c-${i}" && args.amount > 0.0`)).toBe(0)
    // lowerAscii is the interpreter's: once for `args` and once for `args.customer`, when the call is
    // first prepared; not once per rule and read.
    expect(listings((i) => `args.customer.id.lowerAscii() == "c-${i}" && args.amount > 0.0`)).toBe(2)
  })

  it('evaluates a sub-expression that Policies compiled together share once per call (docs/design/policy.md#cost-per-call)', () => {
    const reads = (compile: (spec: unknown, name: string) => CompiledPolicy) => {
      let read = 0
      const args = new Proxy<Record<string, unknown>>(
        { key: 'k-42' },
        {
          get: (target, key) => {
            if (key === 'key') read++
            return Reflect.get(target, key)
          },
        },
      )
      const policies = Array.from({ length: 20 }, (_, i) =>
        compile(
          {
            selector: { tools: ['stripe.*'] },
            rules: [{ when: `has(args.key) && args.key.startsWith("blocked-${i}-") && agent.labels.tier == "none"`, effect: 'deny', reason: `r${i}` }],
          },
          `p${i}`,
        ),
      )
      // The gateway's way: no trace, which would read each rule's arguments again to show them.
      expect(evaluateReaching(policies, call({ args }), { trace: false }).deny).toBeNull()
      return read
    }
    // Compiled on their own, every Policy reads `args.key` for `has()` and for `startsWith`.
    expect(reads((spec, name) => policy(spec, 'finance', name))).toBe(40)
    // Compiled together, as an epoch's are: `has(args.key)` and `args.key` are one node each.
    const shared = fastConditionSet()
    expect(reads((spec, name) => compilePolicy('finance', name, policySpec.parse(spec), shared))).toBe(2)
    expect(shared.stats.shared).toBeGreaterThanOrEqual(2)
  })

  it('gives Policies that share a sub-expression their own outcomes, and fails closed for each one it errs in, naming it', () => {
    const shared = fastConditionSet()
    const EXTRA: Record<string, object> = { limit: { limit: { perMinute: 2 } }, redact: { redact: { fields: ['args.memo'] } } }
    const compile = (name: string, when: string, effect: string) =>
      compilePolicy('finance', name, policySpec.parse({ selector: { tools: ['stripe.*'] }, rules: [{ when, effect, reason: name, ...EXTRA[effect] }] }), shared)
    const policies = [
      compile('small', 'has(args.memo) && args.amount > 100', 'require_approval'),
      compile('large', 'has(args.memo) && args.amount > 50000', 'deny'),
      compile('labelled', 'has(args.memo) && args.amount > 100 && agent.labels.team == "ap"', 'limit'),
      compile('or-true', 'args.amount > 100 || true', 'redact'),
    ]
    const outcomes = (args: Record<string, unknown>) => {
      const decision = evaluatePolicies(policies, call({ args }))
      return { deny: decision.deny, trace: decision.trace.map((t) => [t.policy, t.outcome, t.error ?? null]) }
    }
    expect(outcomes({ memo: 'x', amount: 60000 })).toMatchObject({
      deny: { policy: 'finance/large' },
      trace: [
        ['finance/small', 'matched', null],
        ['finance/large', 'matched', null],
        ['finance/labelled', 'matched', null],
        ['finance/or-true', 'matched', null],
      ],
    })
    // The next call's values, not the last one's.
    expect(outcomes({ memo: 'x', amount: 500 })).toMatchObject({
      deny: null,
      trace: [
        ['finance/small', 'matched', null],
        ['finance/large', 'not_matched', null],
        ['finance/labelled', 'matched', null],
        ['finance/or-true', 'matched', null],
      ],
    })
    // `args.amount > 100` cannot be evaluated on a string: every Policy that needs it fails closed, each
    // named with CEL's error; `|| true` does not need it (CEL's `error || true` is true).
    const failed = outcomes({ memo: 'x', amount: '60000' })
    expect(failed.deny).toMatchObject({ policy: 'finance/small', error: expect.stringContaining('overload') })
    expect(failed.trace).toEqual([
      ['finance/small', 'error', expect.stringContaining('overload')],
      ['finance/large', 'error', expect.stringContaining('overload')],
      ['finance/labelled', 'error', expect.stringContaining('overload')],
      ['finance/or-true', 'matched', null],
    ])
  })

  it('leaves the trace out for the gateway, and decides the same', async () => {
    const { evaluateReaching } = await import('@/lib/policy/evaluate-policies')
    const p = policy({ selector: { tools: ['stripe.*'] }, rules: [{ when: 'args.amount > 50000.0', effect: 'require_approval', reason: 'large' }] })
    const traced = evaluatePolicies([p], call())
    const lean = evaluateReaching([p], call(), { trace: false })
    expect(lean).toEqual({ ...traced, trace: [] })
    expect(traced.trace).toHaveLength(1)
  })
})
