import { describe, expect, it } from 'vitest'
import { buildArgv } from '@/lib/gateway/executors/os'
import { buildRestRequest } from '@/lib/gateway/executors/rest'
import { renderIdempotencyKey, storableKey } from '@/lib/gateway/idempotency-key'
import { rateWindows } from '@/lib/gateway/rate-limit'
import { parseRedactFields, redactTree } from '@/lib/gateway/redact'
import { REDACTED, scrubText, scrubTree } from '@/lib/secrets/scrub-values'
import { backoffMs, defaultRetry, minAttemptMs, withRetries } from '@/lib/gateway/retry'
import { TransientError } from '@/lib/gateway/tool-errors'
import { ToolFailure } from '@/lib/gateway/tool-errors'
import { validateArguments } from '@/lib/gateway/validate-args'

describe('redaction', () => {
  it('masks the listed paths, through arrays, and remembers what it masked', () => {
    const found = new Set<string>()
    const r = parseRedactFields(['args.body', 'args.customer.email', 'args.items[*].token', 'result.token'])
    const out = redactTree(
      'args',
      { subject: 's', body: 'secret body', customer: { email: 'a@b.c', name: 'n' }, items: [{ token: 'tok-1', id: 1 }, { token: 'tok-2' }] },
      r,
      found,
    )
    expect(out).toEqual({ subject: 's', body: REDACTED, customer: { email: REDACTED, name: 'n' }, items: [{ token: REDACTED, id: 1 }, { token: REDACTED }] })
    expect([...found].sort()).toEqual(['a@b.c', 'secret body', 'tok-1', 'tok-2'])
    expect(redactTree('result', { token: { deep: ['x1234'] } }, r, found)).toEqual({ token: REDACTED })
    expect(found.has('x1234')).toBe(true)
  })

  it('scrubs sensitive values out of free text and nested values, leaving short ones alone', () => {
    const sensitive = new Set(['hunter22', 'ab'])
    expect(scrubText('password hunter22 and ab', sensitive)).toBe(`password ${REDACTED} and ab`)
    expect(scrubTree({ msg: ['xhunter22x'], hunter22: 1 }, sensitive)).toEqual({ msg: [`x${REDACTED}x`], [REDACTED]: 1 })
  })
})

describe('idempotency keys', () => {
  it('render the joch template syntax, hashing where asked', () => {
    expect(renderIdempotencyKey('zendesk-{{ args.subject | hash }}', { subject: 'Printer' })).toMatch(/^zendesk-[0-9a-f]{16}$/)
    expect(renderIdempotencyKey('zendesk-{{ args.subject | hash }}', { subject: 'Printer' })).toBe(
      renderIdempotencyKey('zendesk-{{args.subject|hash}}', { subject: 'Printer' }),
    )
    expect(renderIdempotencyKey('o-{{ args.order.id }}-{{args.missing}}', { order: { id: 42 } })).toBe('o-42-')
  })

  it('are stored hashed when they would carry a redacted value', () => {
    expect(storableKey('k-plain', new Set(['secret-value']))).toBe('k-plain')
    expect(storableKey('k-secret-value', new Set(['secret-value']))).toMatch(/^sha256:[0-9a-f]{64}$/)
  })
})

describe('retries', () => {
  it('back off exponentially with full jitter, capped', () => {
    const policy = defaultRetry()
    expect(backoffMs(1, policy, () => 1)).toBe(policy.baseMs)
    expect(backoffMs(3, policy, () => 1)).toBe(policy.baseMs * 4)
    expect(backoffMs(30, policy, () => 1)).toBe(policy.maxMs)
    expect(backoffMs(3, policy, () => 0)).toBe(0)
  })

  it('share one deadline: each attempt gets what is left, and the deadline, not the last failure, ends a call that ran out', async () => {
    let clock = 0
    const given: number[] = []
    const failing = (attempt: number, attemptMs: number): Promise<never> => {
      given.push(attemptMs)
      clock += attempt === 1 ? 600 : attemptMs
      return Promise.reject(new TransientError('the endpoint answered 503', { status: 503 }, 'busy'))
    }
    const noPause = { maxAttempts: 5, baseMs: 0, maxMs: 0 }
    const e = await withRetries(true, { totalMs: 1000, source: 'timeoutMs' }, failing, () => {}, { policy: noPause, now: () => clock }).catch((x: unknown) => x)
    expect(given).toEqual([1000, 400])
    expect(e).toBeInstanceOf(ToolFailure)
    expect(e).toMatchObject({
      errorCode: 'deadline_exceeded',
      upstreamReply: 'busy',
      detail: { failure: 'deadline', budgetMs: 1000, status: 503, retried: true },
    })
    expect((e as Error).message).toBe(
      "the call's deadline of 1000 ms (timeoutMs, retries included) was hit after 2 attempts; the last: the endpoint answered 503",
    )
  })

  it('start no retry with less than the least an attempt needs left', async () => {
    let clock = 0
    let attempts = 0
    const run = () => {
      attempts++
      clock += 1000 - minAttemptMs(1000) + 1
      return Promise.reject(new TransientError('the endpoint answered 502'))
    }
    const e = await withRetries(true, { totalMs: 1000, source: 'timeoutMs' }, run, () => {}, {
      policy: { maxAttempts: 3, baseMs: 0, maxMs: 0 },
      now: () => clock,
    }).catch((x: unknown) => x)
    expect(attempts).toBe(1)
    expect(e).toMatchObject({ errorCode: 'deadline_exceeded' })
    // With time to spare, the attempts run out first and the failure is the upstream's own.
    clock = 0
    const quick = () => Promise.reject(new TransientError('the endpoint answered 502'))
    const last = await withRetries(true, { totalMs: 1000, source: 'timeoutMs' }, quick, () => {}, {
      policy: { maxAttempts: 3, baseMs: 0, maxMs: 0 },
      now: () => clock,
    }).catch((x: unknown) => x)
    expect(last).toBeInstanceOf(TransientError)
  })

  it('retry nothing the caller cancelled', async () => {
    const cancel = new AbortController()
    let attempts = 0
    const run = () => {
      attempts++
      cancel.abort(new Error('cancelled by the client'))
      return Promise.reject(new TransientError('the request was aborted'))
    }
    const e = await withRetries(true, { totalMs: 60_000, source: 'timeoutMs' }, run, () => {}, {
      policy: { maxAttempts: 3, baseMs: 0, maxMs: 0 },
      signal: cancel.signal,
    }).catch((x: unknown) => x)
    expect(attempts).toBe(1)
    expect(e).toBeInstanceOf(TransientError)
  })
})

describe('rate windows', () => {
  it('count per agent and per tool, per minute and per day, in a fixed order', () => {
    const now = Date.parse('2026-11-22T10:15:30.500Z')
    const w = rateWindows('t.x', { callsPerMinute: 10, callsPerDay: null }, 'agent-1', { callsPerMinute: null, callsPerDay: 1000 }, now)
    expect(w.map((x) => [x.scope, x.start.toISOString(), x.limit])).toEqual([
      ['a:agent-1:d', '2026-11-22T00:00:00.000Z', 1000],
      ['t:t.x:m', '2026-11-22T10:15:00.000Z', 10],
    ])
    expect(w[1].retryAfterSeconds).toBe(30)
    expect(rateWindows('t.x', { callsPerMinute: null, callsPerDay: null }, 'a', { callsPerMinute: null, callsPerDay: null }, now)).toEqual([])
  })
})

describe('os tool argument vectors', () => {
  it('substitute arguments inside single items, never splitting them, and never as the program', () => {
    expect(buildArgv(['/bin/grep', '-e', '{{args.pattern}}', '--', '{{args.files}}'], { pattern: 'a b; rm -rf /', files: ['x', 'y z'] })).toEqual([
      '/bin/grep',
      '-e',
      'a b; rm -rf /',
      '--',
      'x',
      'y z',
    ])
    expect(buildArgv(['/bin/echo', '--name={{args.n}}'], { n: '$(id)' })).toEqual(['/bin/echo', '--name=$(id)'])
    expect(() => buildArgv(['{{args.program}}'], { program: '/bin/sh' })).toThrow(/argv\[0\]/)
  })
})

describe('rest requests', () => {
  it('put path arguments in the URL, the rest in the query (GET) or the JSON body', () => {
    expect(buildRestRequest({ method: 'GET', url: 'http://x/items/{id}' }, { id: 'a/b', q: 'z', n: 2 })).toEqual({ url: 'http://x/items/a%2Fb?q=z&n=2' })
    expect(buildRestRequest({ method: 'POST', url: 'http://x/items' }, { a: 1 })).toEqual({ url: 'http://x/items', body: '{"a":1}' })
  })
})

describe('argument validation', () => {
  it('names every violation and refuses deep nesting before validating', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, additionalProperties: false }
    expect(validateArguments(schema, { a: 'x' })).toEqual([])
    expect(
      validateArguments(schema, { b: 1 })
        .map((v) => v.path)
        .sort(),
    ).toEqual(['/a', '/b'])
    expect(validateArguments(schema, [])[0].message).toMatch(/object/)
    let deep: unknown = 1
    for (let i = 0; i < 100; i++) deep = { d: deep }
    expect(validateArguments({ type: 'object' }, deep)[0].rule).toBe('depth')
  })
})
