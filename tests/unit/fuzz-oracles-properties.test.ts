// Properties of the fuzzer's oracles (scripts/fuzz/oracles.mjs) and of the pipeline rule they judge:
// every exception Toolroom did not expect is told apart from the tool's own failure, the same way the
// pipeline says it and the fuzzer reads it; a secret is found in every encoding an echo can give it;
// a route's contract decides who may get a 2xx; an internal origin is found wherever an answer has it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TransientError } from '@/lib/gateway/tool-errors'
import { executionFailure, INTERNAL_FAILURE, ToolFailure } from '@/lib/gateway/tool-errors'
import {
  accessViolation,
  internalErrorInRest,
  internalErrorsInMcp,
  internalOrigin,
  internalRpcError,
  leakedSecret,
  overBudget,
  secretForms,
} from '@/scripts/fuzz/oracles.mjs'

// What an executor might throw that nobody planned for: any value, or an Error of any kind.
const unexpected = fc.oneof(
  fc.anything(),
  fc.string().map((m) => new Error(m)),
  fc.string().map((m) => new RangeError(m)),
  fc.string().map((m) => new TypeError(m)),
)
const errorCodes = fc.stringMatching(/^[a-z][a-z_]{1,30}$/).filter((c) => c !== INTERNAL_FAILURE)

describe('internal errors against the tool’s failures', () => {
  it('names what was thrown even when it cannot be turned into text (an object whose toString is not a function)', () => {
    expect(executionFailure({ toString: [] }, 1)).toMatchObject({ errorCode: 'internal', message: expect.stringContaining('[object Object]') })
    expect(executionFailure(null, 1).message).toMatch(/: null$/)
  })

  it("the pipeline marks every unexpected exception as Toolroom's own, and the oracle sees it over MCP and REST", () => {
    fc.assert(
      fc.property(unexpected, fc.integer({ min: 1, max: 10 }), (e, attempts) => {
        const f = executionFailure(e, attempts)
        expect(f.errorCode).toBe(INTERNAL_FAILURE)
        expect(f.message).toMatch(/^Toolroom's own error/)
        const error = { code: f.rpc, message: f.message, data: { outcome: 'failed', errorCode: f.errorCode } }
        expect(internalRpcError(error)).not.toBeNull()
        expect(internalErrorsInMcp(JSON.stringify({ jsonrpc: '2.0', id: 1, error }))).toHaveLength(1)
        expect(internalErrorInRest(502, JSON.stringify({ status: 502, rpcCode: f.rpc, detail: f.message, data: error.data }))).not.toBeNull()
      }),
    )
  })

  it("an executor's failure keeps its own code, and the oracle counts it as the tool's", () => {
    fc.assert(
      fc.property(errorCodes, fc.string(), fc.boolean(), (code, message, transient) => {
        const f = executionFailure(transient ? new TransientError(message, { status: 503 }) : new ToolFailure(message, code, { status: 500 }), 2)
        expect(f.errorCode).not.toBe(INTERNAL_FAILURE)
        const error = { code: f.rpc, message: f.message, data: { ...f.data, errorCode: f.errorCode } }
        expect(internalRpcError(error)).toBeNull()
        const sse = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 3, error })}\n\n`
        expect(internalErrorsInMcp(sse, 'text/event-stream')).toEqual([])
        expect(internalErrorInRest(502, JSON.stringify({ rpcCode: f.rpc, detail: f.message, data: error.data }))).toBeNull()
      }),
    )
  })

  it('a -32603 without errorCode (an exception the SDK or the front caught) is an internal error', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(
          fc.dictionary(
            fc.string().filter((k) => k !== 'errorCode'),
            fc.jsonValue(),
          ),
        ),
        (message, data) => {
          expect(internalRpcError({ code: -32603, message, ...(data ? { data } : {}) })).not.toBeNull()
        },
      ),
    )
  })
})

describe('injected secrets in answers', () => {
  // A secret as Secrets hold them: printable, at least 6 characters (shorter ones are not scrubbed).
  const secrets = fc.string({ unit: fc.constantFrom(...'abcXYZ019/+="\\-_.~ %é'.split('')), minLength: 6, maxLength: 40 })
  const encodings = [
    (s: string) => s,
    (s: string) => Buffer.from(s).toString('base64'),
    (s: string) => Buffer.from(s).toString('base64url'),
    (s: string) => encodeURIComponent(s),
    (s: string) => JSON.stringify(s),
    (s: string) => JSON.stringify(JSON.stringify(s)),
  ]

  it('finds a secret in any common encoding, anywhere in an answer', () => {
    fc.assert(
      fc.property(secrets, fc.string(), fc.string(), fc.integer({ min: 0, max: encodings.length - 1 }), (secret, before, after, i) => {
        expect(leakedSecret(`${before}${encodings[i](secret)}${after}`, [secret])).not.toBeNull()
      }),
    )
  })

  it('finds nothing in an answer that has none of its forms', () => {
    fc.assert(
      fc.property(secrets, fc.string(), (secret, text) => {
        fc.pre(secretForms(secret).every((f) => !text.includes(f)))
        expect(leakedSecret(text, [secret])).toBeNull()
      }),
    )
  })
})

describe("who may reach a route, by its contract's access", () => {
  const accesses = fc.constantFrom('public', 'read', 'write', 'approve', 'admin', 'agent')
  it('anonymous callers get no 2xx but on public routes; agent credentials only on agent routes; people’s tokens never on agent routes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('admin' as const, 'agent' as const, 'anonymous' as const),
        accesses,
        fc.integer({ min: 100, max: 599 }),
        (identity, access, status) => {
          const admitted = access === 'public' || (identity === 'agent' ? access === 'agent' : identity === 'admin' && access !== 'agent')
          expect(accessViolation(identity, access, status) !== null).toBe(status >= 200 && status < 300 && !admitted)
        },
      ),
    )
  })
})

describe('internal origins and budgets', () => {
  const loopbackHosts = fc.constantFrom('localhost', '127.0.0.1', '127.5.6.7', '[::1]', '0.0.0.0')
  it('any loopback origin with a port but the public one and the upstreams’ is reported; those are not', () => {
    fc.assert(
      fc.property(
        loopbackHosts,
        fc.option(fc.integer({ min: 1, max: 65535 })),
        fc.integer({ min: 1, max: 65535 }),
        fc.string(),
        (host, port, publicPort, text) => {
          const publicOrigin = `http://127.0.0.1:${publicPort}`
          const origin = `http://${host}${port === null ? '' : `:${port}`}`
          const found = internalOrigin(`${text} ${origin}/x`, publicOrigin)
          const named = new URL(origin)
          expect(found !== null).toBe((named.port !== '' && named.origin !== publicOrigin) || internalOrigin(text, publicOrigin) !== null)
          expect(internalOrigin(`${origin}/x`, publicOrigin, [origin])).toBeNull()
        },
      ),
    )
  })

  it('a call is over budget exactly when it outlived timeoutMs plus the margin', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(60_000), fc.nat(5_000), (elapsed, timeout, margin) => {
        expect(overBudget(elapsed, timeout, margin) !== null).toBe(elapsed > timeout + margin)
      }),
    )
  })
})
