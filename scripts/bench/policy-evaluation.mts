// npm run bench:policies — CPU of the pure Policy evaluation per call (evaluatePolicies, what the
// gateway runs after the argument check), with none, 1 and 100 Policies that all reach the called
// tool (bench:gateway's Policies: a condition over the arguments and the agent that does not match,
// so every rule is evaluated), and with 100 Policies that each select their own tool (the realistic
// registry: the call is reached by one). Prints JSON: µs of CPU per call, median of BENCH_ROUNDS
// rounds, the gateway's way (the reaching Policies known per agent and tool, no trace) and the
// explainer's (every Policy's selector tested, each rule traced); the gateway's path once more with the
// CPU's caches emptied before each call, as the gateway's other work between calls leaves them; and the
// CPU of compiling 100 Policies (once per registry epoch, so not part of a call's cost).
// BENCH_POLICY_MODULE=<path> measures another copy of lib/policy/evaluate-policies.ts (an older
// commit's), for an A/B in the same minutes: run the two one after the other, several times over (two
// copies in one process disturb each other's figures: the one measured first in each round was
// always the slower, the same code included).
import type * as Evaluation from '@/lib/policy/evaluate-policies'
import type { PolicyCall } from '@/lib/policy/evaluate-policies'
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import type * as FastPath from '@/lib/policy/compile-fast-condition'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const CALLS = Number(process.env.BENCH_CALLS ?? 300)

const spec = (i: number, tool: string) =>
  ({
    selector: { tools: [tool] },
    rules: [{ when: `has(args.key) && args.key.startsWith("blocked-${i}-") && agent.labels.tier == "none"`, effect: 'deny', reason: `bench policy ${i}` }],
  }) as PolicySpec

const call: PolicyCall = {
  agent: { namespace: 'default', name: 'bench-agent', labels: { team: 'bench', tier: 'gold' }, units: ['team-a', 'org'] },
  tool: { id: 'bench.lookup', level: 'read_only', labels: {}, source: { kind: 'LanguageTool', namespace: 'default', name: 'bench' } },
  args: { key: 'k-42', limit: 10, filters: { region: 'eu', tags: ['a', 'b'] } },
  person: null,
  now: new Date('2026-11-27T12:00:00Z'),
}

type Measurement = () => void

/** The gateway's path once per call with the caches cold, as in the gateway, which runs everything else between two calls. */
const cold: Record<string, Measurement> = {}

/** Everything one module's copy runs, by name: a call on each path with each set, and compiling 100 Policies. */
async function measurements(modulePath: string): Promise<Record<string, Measurement>> {
  const { compilePolicy, evaluatePolicies, evaluateReaching, policyReaches } = (await import(modulePath)) as Partial<typeof Evaluation> &
    Pick<typeof Evaluation, 'compilePolicy' | 'evaluatePolicies' | 'policyReaches'>
  // Each set's Policies are compiled together, as lib/policy/policy-set.ts compiles an epoch's (an
  // older module, without fastConditionSet, compiled each Policy on its own).
  const { fastConditionSet } = (await import(modulePath.replace(/evaluate-policies(\.ts)?$/, 'compile-fast-condition$1'))) as Partial<typeof FastPath>
  const compileSet = (n: number, tool: (i: number) => string): Evaluation.CompiledPolicy[] => {
    const shared = fastConditionSet?.()
    return Array.from({ length: n }, (_, i) => compilePolicy('default', `bench-${i}`, spec(i, tool(i)), shared))
  }
  const sets = {
    none: [],
    'one reaching': compileSet(1, () => 'bench.*'),
    '100 reaching': compileSet(100, () => 'bench.*'),
    '100, each its own tool': compileSet(100, (i) => (i === 0 ? 'bench.lookup' : `other${i}.*`)),
  }
  const out: Record<string, Measurement> = {}
  const calls = (evaluate: () => Evaluation.PolicyDecision) => () => {
    for (let i = 0; i < CALLS; i++) if (evaluate().deny) throw new Error('no bench policy matches')
  }
  for (const [name, policies] of Object.entries(sets)) {
    // The gateway's path: lib/policy/policy-set.ts hands over the Policies that reach the agent and
    // tool (an older evaluatePolicies, without evaluateReaching, filtered them itself on every call).
    const reaching = policies.filter((p) => policyReaches(p, call.agent, call.tool.id))
    out[`gateway/${name}`] = calls(evaluateReaching ? () => evaluateReaching(reaching, call, { trace: false }) : () => evaluatePolicies(policies, call))
    out[`explainer/${name}`] = calls(() => evaluatePolicies(policies, call))
    cold[name] = () => void (evaluateReaching ? evaluateReaching(reaching, call, { trace: false }) : evaluatePolicies(policies, call))
  }
  // Compiling is once per registry epoch, not per call: timed apart, so that a profile's share of it
  // can be told from the per-call cost (BENCHMARKS.md, Policies).
  out.compile100 = () => void compileSet(100, () => 'bench.*')
  return out
}

const measure = await measurements(process.env.BENCH_POLICY_MODULE ?? '@/lib/policy/evaluate-policies')
const cpuMicros = (run: Measurement) => {
  const start = process.cpuUsage()
  run()
  const used = process.cpuUsage(start)
  return used.user + used.system
}
for (const run of Object.values(measure)) run() // warm up
const times = Object.fromEntries(Object.keys(measure).map((k) => [k, [] as number[]]))
for (let r = 0; r < ROUNDS; r++) for (const [name, run] of Object.entries(measure)) times[name].push(cpuMicros(run))

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const round1 = (x: number) => Math.round(x * 10) / 10

// Between two calls the gateway parses, validates, forwards and records: what one call's Policies
// touch is no longer in the CPU's caches. Emulated by reading 64 MiB between calls; each call's own
// time is taken (wall clock, so the median of many: a call the scheduler interrupts is an outlier).
const EVICT = new Float64Array(8 * 1024 * 1024)
let evicted = 0
const evict = () => {
  for (let i = 0; i < EVICT.length; i += 8) evicted += EVICT[i]
}
const coldCalls = Number(process.env.BENCH_COLD_CALLS ?? 200)
const coldUs: Record<string, number> = {}
for (const [name, run] of Object.entries(cold)) {
  for (let i = 0; i < 20; i++) run() // warm up the code, not the data
  const each: number[] = []
  for (let i = 0; i < coldCalls; i++) {
    evict()
    const start = process.hrtime.bigint()
    run()
    each.push(Number(process.hrtime.bigint() - start) / 1000)
  }
  coldUs[name] = round1(median(each))
}
if (evicted !== 0) throw new Error('the eviction buffer is zeros')
const path = (prefix: string) =>
  Object.fromEntries(
    Object.entries(times)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, xs]) => [k.slice(prefix.length), round1(median(xs) / CALLS)]),
  )
console.log(
  JSON.stringify({
    usPerCall: { gateway: path('gateway/'), explainer: path('explainer/'), gatewayColdCaches: coldUs },
    msToCompile100: round1(median(times.compile100) / 1000),
    rounds: ROUNDS,
    callsPerRound: CALLS,
    loadavg: (await import('node:os')).loadavg().map((l) => l.toFixed(1)),
  }),
)
