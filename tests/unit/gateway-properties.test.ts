// Property tests of the gateway's pure parts: redaction never lets a listed field through (into the
// stored tree or into free text), and rate-limit windows are aligned, contain the moment counted and
// tell a refused caller a truthful Retry-After.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rateWindows } from '@/lib/gateway/rate-limit'
import { parseRedactFields, redactTree } from '@/lib/gateway/redact'
import { REDACTED, scrubText, scrubTree } from '@/lib/secrets/scrub-values'

const KEYS = ['body', 'token', 'user', 'email', 'items', 'a', 'b']

/** JSON trees over a few keys, so listed paths hit often; leaves are strings and numbers. */
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ minLength: 0, maxLength: 12 }),
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 4 }),
  ),
})).node

/** Redaction paths as operators write them: `args.user.email`, `args.items[*].token`. */
const fieldPath = fc.array(fc.oneof(fc.constantFrom(...KEYS), fc.constant('[*]')), { minLength: 1, maxLength: 4 }).map((parts) => {
  const out: string[] = []
  for (const p of parts)
    if (p === '[*]') out.push(out.length ? `${out.pop()}[*]` : '*')
    else out.push(p)
  return out.join('.')
})

/** Every value of `value` at `path` (segments; `*` is any key or index). */
function valuesAt(value: unknown, path: string[]): unknown[] {
  if (path.length === 0) return [value]
  const [head, ...rest] = path
  if (Array.isArray(value)) return head === '*' ? value.flatMap((v) => valuesAt(v, rest)) : []
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => (head === '*' || head === k ? valuesAt(v, rest) : []))
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)]
  if (Array.isArray(value)) return value.flatMap(leaves)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leaves)
  return []
}

describe('redaction properties', { timeout: 60_000 }, () => {
  it('masks every value under a listed path, and remembers each leaf it masked', () => {
    fc.assert(
      fc.property(tree, fc.array(fieldPath, { minLength: 1, maxLength: 3 }), fc.constantFrom('args' as const, 'result' as const), (value, fields, root) => {
        const found = new Set<string>()
        const listed = fields.map((f) => `${root}.${f}`)
        const out = redactTree(root, value, parseRedactFields(listed), found)
        for (const f of fields) {
          const path = f
            .replace(/\[\*\]/g, '.*')
            .split('.')
            .filter(Boolean)
          // Where the input has something at a listed path, the output has the mask there (or above it).
          for (const masked of valuesAt(out, path)) {
            if (masked === REDACTED) continue
            // A shorter listed path masked an ancestor: then nothing below it survives either.
            expect(masked, `${f} of ${JSON.stringify(value)}`).toBe(REDACTED)
          }
          for (const original of valuesAt(value, path)) for (const leaf of leaves(original)) expect(found.has(leaf)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('leaves the tree alone when no listed path is rooted where it looks', () => {
    fc.assert(
      fc.property(tree, fc.array(fieldPath, { maxLength: 3 }), (value, fields) => {
        const found = new Set<string>()
        expect(redactTree('args', value, parseRedactFields(fields.map((f) => `result.${f}`)), found)).toEqual(value)
        expect(found.size).toBe(0)
      }),
    )
  })

  it('scrubs every sensitive value of 4 characters or more out of free text, keys included', () => {
    // Values that are part of the mask itself would "reappear" after masking; nothing real is that short and odd.
    const secret = fc.string({ minLength: 4, maxLength: 16 }).filter((s) => !REDACTED.includes(s) && !s.includes(REDACTED))
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 4 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }), (secrets, filler) => {
        const text = filler.map((f, i) => `${f}${secrets[i % secrets.length]}`).join('') + secrets.join('|')
        const sensitive = new Set(secrets)
        const scrubbed = scrubText(text, sensitive)
        // A longer secret may contain a shorter one: masking the short one first breaks the long one up, which is fine.
        for (const s of secrets) expect(scrubbed.includes(s), `${JSON.stringify(s)} left in ${JSON.stringify(scrubbed)}`).toBe(false)
        const nested = scrubTree({ [text]: [text, { m: text }] }, sensitive)
        for (const s of secrets) expect(JSON.stringify(nested).includes(JSON.stringify(s).slice(1, -1))).toBe(false)
      }),
      { numRuns: 300 },
    )
  })
})

const MINUTE = 60_000
const DAY = 86_400_000
const limit = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null })
const limits = fc.record({ callsPerMinute: limit, callsPerDay: limit })
// Any moment from 1970 to about 2200.
const moment = fc.integer({ min: 0, max: 7_258_118_400_000 })

describe('rate-limit window properties', { timeout: 60_000 }, () => {
  it('gives one window per limit set, in a fixed order (agent day, agent minute, tool day, tool minute)', () => {
    fc.assert(
      fc.property(limits, limits, moment, (tool, agent, now) => {
        const w = rateWindows('t.x', tool, 'agent-1', agent, now)
        const expected = [
          agent.callsPerDay !== null && 'a:agent-1:d',
          agent.callsPerMinute !== null && 'a:agent-1:m',
          tool.callsPerDay !== null && 't:t.x:d',
          tool.callsPerMinute !== null && 't:t.x:m',
        ].filter(Boolean)
        expect(w.map((x) => x.scope)).toEqual(expected)
      }),
    )
  })

  it('aligns every window to its length, contains the moment counted, expires a minute after it ends and says truthfully when to retry', () => {
    fc.assert(
      fc.property(limits, limits, moment, (tool, agent, now) => {
        for (const w of rateWindows('t.x', tool, 'a', agent, now)) {
          const length = w.scope.endsWith(':d') ? DAY : MINUTE
          const start = w.start.getTime()
          expect(start % length).toBe(0)
          expect(start).toBeLessThanOrEqual(now)
          expect(now).toBeLessThan(start + length)
          expect(w.expires.getTime()).toBe(start + length + MINUTE)
          expect(w.retryAfterSeconds).toBeGreaterThanOrEqual(1)
          expect(w.retryAfterSeconds).toBeLessThanOrEqual(length / 1000)
          // Retrying after the advertised wait lands in the next window (or later), never in this one.
          expect(now + w.retryAfterSeconds * 1000).toBeGreaterThanOrEqual(start + length)
          expect(w.limit).toBe(
            w.scope.startsWith('a:') ? (length === DAY ? agent.callsPerDay : agent.callsPerMinute) : length === DAY ? tool.callsPerDay : tool.callsPerMinute,
          )
        }
      }),
      { numRuns: 300 },
    )
  })

  it('puts two moments in the same window exactly when they share its aligned start', () => {
    fc.assert(
      fc.property(moment, fc.integer({ min: 0, max: 2 * DAY }), (now, delta) => {
        const both = { callsPerMinute: 1, callsPerDay: 1 }
        const a = rateWindows('t', both, 'a', both, now)
        const b = rateWindows('t', both, 'a', both, now + delta)
        for (let i = 0; i < a.length; i++) {
          const length = a[i].scope.endsWith(':d') ? DAY : MINUTE
          const same = Math.floor(now / length) === Math.floor((now + delta) / length)
          expect(a[i].start.getTime() === b[i].start.getTime()).toBe(same)
        }
      }),
      { numRuns: 300 },
    )
  })
})
