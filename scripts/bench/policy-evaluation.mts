// npm run bench:policies — CPU of the pure Policy evaluation per call (evaluatePolicies, what the
// gateway runs after the argument check), with none, 1 and 100 Policies that all reach the called
// tool (bench:gateway's Policies: a condition over the arguments and the agent that does not match,
// so every rule is evaluated), and with 100 Policies that each select their own tool (the realistic
// registry: the call is reached by one). Prints JSON: µs of CPU per call, median of BENCH_ROUNDS
// rounds, the gateway's way (the reaching Policies known per agent and tool, no trace) and the
// explainer's (every Policy's selector tested, each rule traced). BENCH_POLICY_MODULE=<path> measures
// another copy of lib/policy/evaluate-policies.ts (an older commit's), for an A/B in the same minutes.
import type * as Evaluation from '@/lib/policy/evaluate-policies'
import type { PolicyCall } from '@/lib/policy/evaluate-policies'
import type { PolicySpec } from '@/lib/manifests/specs/policy'

const { compilePolicy, evaluatePolicies, evaluateReaching, policyReaches } = (await import(
  process.env.BENCH_POLICY_MODULE ?? '@/lib/policy/evaluate-policies'
)) as Partial<typeof Evaluation> & Pick<typeof Evaluation, 'compilePolicy' | 'evaluatePolicies' | 'policyReaches'>

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const CALLS = Number(process.env.BENCH_CALLS ?? 300)

const policy = (i: number, tool: string) =>
  compilePolicy('default', `bench-${i}`, {
    selector: { tools: [tool] },
    rules: [{ when: `has(args.key) && args.key.startsWith("blocked-${i}-") && agent.labels.tier == "none"`, effect: 'deny', reason: `bench policy ${i}` }],
  } as PolicySpec)

const call: PolicyCall = {
  agent: { namespace: 'default', name: 'bench-agent', labels: { team: 'bench', tier: 'gold' }, units: ['team-a', 'org'] },
  tool: { id: 'bench.lookup', level: 'read_only', labels: {}, source: { kind: 'LanguageTool', namespace: 'default', name: 'bench' } },
  args: { key: 'k-42', limit: 10, filters: { region: 'eu', tags: ['a', 'b'] } },
  person: null,
  now: new Date('2026-11-27T12:00:00Z'),
}

const sets = {
  none: [],
  'one reaching': [policy(0, 'bench.*')],
  '100 reaching': Array.from({ length: 100 }, (_, i) => policy(i, 'bench.*')),
  '100, each its own tool': Array.from({ length: 100 }, (_, i) => policy(i, i === 0 ? 'bench.lookup' : `other${i}.*`)),
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
function measure(evaluate: () => Evaluation.PolicyDecision): number {
  for (let i = 0; i < CALLS; i++) evaluate() // warm up
  const rounds: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) if (evaluate().deny) throw new Error('no bench policy matches')
    const used = process.cpuUsage(start)
    rounds.push((used.user + used.system) / CALLS)
  }
  return Math.round(median(rounds) * 10) / 10
}

const gateway: Record<string, number> = {}
const explainer: Record<string, number> = {}
for (const [name, policies] of Object.entries(sets)) {
  // The gateway's path: lib/policy/policy-set.ts hands over the Policies that reach the agent and tool
  // (an older evaluatePolicies, without evaluateReaching, filtered them itself on every call).
  const reaching = policies.filter((p) => policyReaches(p, call.agent, call.tool.id))
  gateway[name] = measure(evaluateReaching ? () => evaluateReaching(reaching, call, { trace: false }) : () => evaluatePolicies(policies, call))
  explainer[name] = measure(() => evaluatePolicies(policies, call))
}
console.log(
  JSON.stringify({
    usPerCall: { gateway, explainer },
    rounds: ROUNDS,
    callsPerRound: CALLS,
    loadavg: (await import('node:os')).loadavg().map((l) => l.toFixed(1)),
  }),
)
