// Time to validate arguments against schemas nobody here wrote, on the inputs that freeze a
// backtracking engine: the ReDoS pattern `^(a+)+$` and the ajv-formats expressions replaced by linear
// checks (lib/manifests/untrusted-ajv.ts). The tests assert which engine runs (RE2, never RegExp);
// the times live here, where a busy machine makes a figure worse instead of a test red. Doubling the
// input should about double the time: the `perChar` figures stay flat when the engine is linear.
// npm run bench:patterns -- [rounds]
import { validateArguments } from '@/lib/gateway/validate-args'

const ROUNDS = Number(process.argv[2] ?? 5)
const pattern = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } }
const formats = {
  type: 'object',
  properties: { u: { type: 'string', format: 'url' }, e: { type: 'string', format: 'email' }, h: { type: 'string', format: 'hostname' } },
}
const cases: Array<{ what: string; chars: number; run: () => unknown }> = []
for (const n of [34, 100_000, 200_000])
  cases.push({ what: `pattern ^(a+)+$, ${n} a's then !`, chars: n + 1, run: () => validateArguments(pattern, { name: `${'a'.repeat(n)}!` }) })
for (const n of [100_000, 200_000]) {
  for (const [what, value] of [
    ['url/email/hostname, http:// then colons', 'http://' + ':'.repeat(n)],
    ['url/email/hostname, http:// then a-', 'http://' + 'a-'.repeat(n / 2) + '!'],
    ['url/email/hostname, a. then @x', `${'a.'.repeat(n / 2)}@x`],
  ] as const)
    cases.push({ what: `${what}, ${value.length} characters`, chars: value.length, run: () => validateArguments(formats, { u: value, e: value, h: value }) })
}

const results = cases.map(({ what, chars, run }) => {
  run() // compiled once per schema text: the first call pays for it
  const ms: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now()
    run()
    ms.push(performance.now() - t)
  }
  const median = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]
  return { what, chars, medianMs: Number(median.toFixed(2)), perCharNs: Number(((median * 1e6) / chars).toFixed(1)) }
})
console.log(JSON.stringify({ rounds: ROUNDS, results }, null, 2))
