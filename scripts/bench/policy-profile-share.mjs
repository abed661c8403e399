// node scripts/bench/policy-profile-share.mjs <file.cpuprofile>... — what share of a process's busy CPU
// went to Policies, from a V8 CPU profile (`BENCH_PROFILE_DIR` on bench:gateway or bench:explain):
// the method of BENCHMARKS.md's Policy sections. A sample counts for a part when some frame of its
// stack is that part's (inclusive time, each sample once per part); busy is every sample but
// `(idle)`. Compiling the Policies happens once per registry epoch, so the share of a run is also
// given without it (the steady state a longer run approaches). Prints JSON, one entry per profile.
import fs from 'node:fs'

/** Each part: a frame of its stack matches `frame` (`functionName url`), and none matches `unless`. */
const PARTS = {
  // Everything a call pays for its Policies: the reaching set, the evaluation, the decision.
  decidePolicies: { frame: /^decidePolicies .*lib\/policy\/policy-set\.ts/, unless: /^(compilePolicy|loadRegistry) / },
  evaluateReaching: { frame: /^evaluateReaching .*lib\/policy\/evaluate-policies\.ts/ },
  // The interpreter's share of the evaluation (@bufbuild/cel's planned programs).
  interpreter: { frame: / .*node_modules\/@bufbuild\/cel\//, unless: /^(compilePolicy|loadRegistry) / },
  // The fast path's closures and their memo, run per call.
  fastPath: { frame: / .*lib\/policy\/compile-fast-condition\.ts/, unless: /^(compilePolicy|loadRegistry|compileFast\w*|compileShared\w*) / },
  // Once per registry epoch.
  compilingPolicies: { frame: /^(compilePolicy|loadRegistry) .*lib\/policy\// },
}

function share(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url}`
  // The parts each leaf node's stack belongs to, worked out once per node.
  const partsOf = new Map()
  const stackParts = (id) => {
    let parts = partsOf.get(id)
    if (parts) return parts
    const frames = []
    for (let at = id; at !== undefined; at = parent.get(at)) frames.push(label(byId.get(at)))
    parts = Object.entries(PARTS)
      .filter(([, p]) => frames.some((f) => p.frame.test(f)) && !(p.unless && frames.some((f) => p.unless.test(f))))
      .map(([name]) => name)
    partsOf.set(id, parts)
    return parts
  }
  const us = Object.fromEntries(Object.keys(PARTS).map((k) => [k, 0]))
  let busy = 0
  let total = 0
  const { samples, timeDeltas } = profile
  for (let i = 0; i < samples.length; i++) {
    // A sample stands for the time until the next one.
    const dt = timeDeltas[i + 1] ?? 0
    total += dt
    const node = byId.get(samples[i])
    if (node.callFrame.functionName === '(idle)') continue
    busy += dt
    for (const part of stackParts(samples[i])) us[part] += dt
  }
  const pct = (x, of) => Math.round((x / of) * 1000) / 10
  const steady = busy - us.compilingPolicies
  return {
    file,
    busySeconds: Math.round(busy / 1e4) / 100,
    profiledSeconds: Math.round(total / 1e4) / 100,
    percentOfBusy: Object.fromEntries(Object.entries(us).map(([k, v]) => [k, pct(v, busy)])),
    compilingPoliciesMs: Math.round(us.compilingPolicies / 100) / 10,
    // Per call, once the epoch's Policies are compiled.
    percentOfBusyWithoutCompiling: {
      decidePolicies: pct(us.decidePolicies, steady),
      evaluateReaching: pct(us.evaluateReaching, steady),
      fastPath: pct(us.fastPath, steady),
      interpreter: pct(us.interpreter, steady),
    },
  }
}

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: node scripts/bench/policy-profile-share.mjs <file.cpuprofile>...')
  process.exit(2)
}
console.log(JSON.stringify(files.map(share), null, 2))
