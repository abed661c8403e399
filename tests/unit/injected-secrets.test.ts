// Property tests of the rule that keeps injected secrets out of answers: whatever surrounds a secret
// and however an echo encodes it (JSON-escaped up to three levels, URL- or form-encoded, base64 of
// either alphabet at any alignment, base64 of the JSON), the scrubbed text no longer gives it away.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InjectedSecrets, MIN_INJECTED_SECRET_LENGTH } from '@/lib/gateway/injected-secrets'
import { ToolFailure } from '@/lib/gateway/tool-errors'

const json = (s: string) => JSON.stringify(s).slice(1, -1)
const ENCODINGS: Record<string, (s: string) => string> = {
  plain: (s) => s,
  json: json,
  'json in json': (s) => json(json(s)),
  'json in json in json': (s) => json(json(json(s))),
  'json, slashes escaped': (s) => json(s).replace(/\//g, '\\/'),
  url: encodeURIComponent,
  form: (s) => new URLSearchParams({ v: s }).toString(),
  base64: (s) => Buffer.from(s).toString('base64'),
  base64url: (s) => Buffer.from(s).toString('base64url'),
  'base64 of json': (s) => Buffer.from(JSON.stringify({ s })).toString('base64'),
}

/** Every reading of `text` a recipient could try: unescaped, URL-decoded, and each base64 run decoded at each alignment. */
function readings(text: string): string[] {
  const out = [text]
  for (let level = 0, t = text; level < 4; level++) out.push((t = t.replace(/\\(.)/g, '$1')))
  try {
    out.push(decodeURIComponent(text.replace(/\+/g, ' ')), decodeURIComponent(text))
  } catch {
    // not URL-encoded as a whole
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? [])
    for (let skip = 0; skip < 4; skip++) {
      const decoded = Buffer.from(run.slice(skip), 'base64').toString('utf8')
      out.push(decoded, decoded.replace(/\\(.)/g, '$1'))
    }
  return out
}

const secret = fc.string({ minLength: MIN_INJECTED_SECRET_LENGTH, maxLength: 40, unit: 'binary' }).filter((s) => s.trim().length === s.length)
const around = fc.string({ maxLength: 12, unit: 'binary' })

describe('InjectedSecrets', () => {
  it('leaves no encoding of an injected secret readable, whatever surrounds it', () => {
    fc.assert(
      fc.property(secret, around, around, fc.constantFrom(...Object.keys(ENCODINGS)), (value, before, after, encoding) => {
        const secrets = new InjectedSecrets()
        secrets.add(value, 'test')
        const scrubbed = secrets.scrubText(ENCODINGS[encoding](`${before}${value}${after}`))
        expect(scrubbed).toContain('[REDACTED]')
        for (const reading of readings(scrubbed)) expect(reading.includes(value), `${encoding}: ${scrubbed}`).toBe(false)
      }),
      { numRuns: 400 },
    )
  })

  it('scrubs every string and key of an answer, and costs nothing when the call injected no secret', () => {
    const answer = { content: [{ type: 'text', text: 'no secrets here' }], structuredContent: { n: 1 } }
    expect(new InjectedSecrets().scrub(answer)).toBe(answer)
    const secrets = new InjectedSecrets()
    secrets.add('sk-live-0123456789', 'test')
    expect(
      secrets.scrub({ content: [{ type: 'text', text: 'key sk-live-0123456789' }], structuredContent: { 'sk-live-0123456789': ['sk-live-0123456789', 7] } }),
    ).toEqual({
      content: [{ type: 'text', text: 'key [REDACTED]' }],
      structuredContent: { '[REDACTED]': ['[REDACTED]', 7] },
    })
  })

  it("scrubs a failure's message, detail and upstream reply, keeping its class and codes", () => {
    const secrets = new InjectedSecrets()
    secrets.add('sk-live-0123456789', 'test')
    const scrubbed = secrets.scrubError(
      new ToolFailure('saw sk-live-0123456789', 'upstream_status', { body: 'sk-live-0123456789' }, -32602, 'sk-live-0123456789'),
    )
    expect(scrubbed).toBeInstanceOf(ToolFailure)
    expect(scrubbed).toMatchObject({
      message: 'saw [REDACTED]',
      errorCode: 'upstream_status',
      detail: { body: '[REDACTED]' },
      rpcCode: -32602,
      upstreamReply: '[REDACTED]',
    })
  })

  it('refuses a credential too short to scrub; for a basic credential, its password decides, and is scrubbed on its own', () => {
    const secrets = new InjectedSecrets()
    expect(() => secrets.add('abc1234', 'the credential in Secret "s"')).toThrow(/Secret "s" is 7 characters long/)
    expect(() => secrets.add('a-long-user-name:short', 'the login', 'basic')).toThrow(ToolFailure)
    secrets.add('robot:long-enough-password', 'the login', 'basic')
    expect(secrets.scrubText('user robot, password long-enough-password')).toBe('user robot, password [REDACTED]')
    // A bare API key sent as the user name (no password) is the secret.
    secrets.add('sk_live_0123456789:', 'the login', 'basic')
    expect(secrets.scrubText('key sk_live_0123456789')).toBe('key [REDACTED]')
  })

  it('scrubs the credentials of a header value sent with its scheme on their own, and judges their length', () => {
    const secrets = new InjectedSecrets()
    secrets.add('Bearer tok-0123456789', 'the authorization header')
    secrets.add(`Basic ${Buffer.from('svc:pass-0123456789').toString('base64')}`, 'the proxy header')
    expect(secrets.scrubText('token tok-0123456789; password pass-0123456789')).toBe('token [REDACTED]; password [REDACTED]')
    expect(() => new InjectedSecrets().add('Bearer abc', 'the authorization header')).toThrow(/3 characters long/)
    expect(() => new InjectedSecrets().add(`Basic ${Buffer.from('admin:hunter2').toString('base64')}`, 'the header')).toThrow(/7 characters long/)
    // Two words are a passphrase, not a scheme and a token, when the second is too short to stand alone.
    const phrase = new InjectedSecrets()
    phrase.add('correct horse', 'the passphrase')
    expect(phrase.scrubText('a horse, a correct horse')).toBe('a horse, a [REDACTED]')
  })
})
