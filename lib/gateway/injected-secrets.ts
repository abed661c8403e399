// The secret values one call injected into its upstream request (a REST tool's auth, an MCP server's
// authHeaders), and the one rule that keeps them out of everything the upstream answers: its result
// (content, structuredContent, isError or not), its error (message, data, reply), its progress
// reports. An upstream that echoes its request must not hand the agent a credential it could use
// outside the gateway's levels, approvals, limits and log (docs/design/gateway.md, "What an upstream
// echoes"). The pipeline passes every upstream outcome through `scrub`/`scrubError` before anything
// else sees it, so the agent's answer, the stored call, the idempotency replay and an approved call's
// sealed answer all hold the scrubbed form. A call that injected nothing costs nothing.
import 'server-only'
import { REDACTED } from '@/lib/secrets/scrub-values'
import { TransientError } from './tool-errors'
import { ToolFailure } from './tool-errors'

/**
 * Shorter values are not injected at all: they cannot be told apart from ordinary words and numbers
 * in an answer (scrubbing "abc1" would wreck it), and a credential that short is guessable anyway.
 */
export const MIN_INJECTED_SECRET_LENGTH = 8

const B64_CHAR = '[A-Za-z0-9+/_-]'
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Regular-expression sources for every form in which `value` can appear in an answer: as sent,
 * JSON-escaped (up to three levels deep, also with `\/`), URL- and form-encoded, and base64
 * (standard and url-safe, of the value as sent and as JSON-escaped) at each of the three alignments
 * it can have inside a longer encoded text (`Bearer <secret>` or a whole header dump, base64-encoded,
 * puts it at any offset). At an offset, the characters that mix the secret's bits with its
 * neighbours' are matched as any base64 character, so no piece of it is left behind.
 */
function formsOf(value: string): string[] {
  const literal = new Set<string>([value])
  // A header dump is JSON before it is base64: the secret is encoded as it reads there, too.
  const beforeBase64 = new Set<string>([value])
  // JSON inside JSON (a body quoted in an error, itself quoted) escapes again at each level.
  for (let level = 1, json = value; level <= 3; level++) {
    json = JSON.stringify(json).slice(1, -1)
    literal.add(json)
    literal.add(json.replace(/\//g, '\\/'))
    if (level === 1) beforeBase64.add(json).add(json.replace(/\//g, '\\/'))
  }
  const uri = encodeURIComponent(value)
  literal.add(uri)
  literal.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))
  literal.add(new URLSearchParams({ v: value }).toString().slice(2))
  return [...[...literal].map(escapeRegExp), ...[...beforeBase64].flatMap(base64Forms)]
}

function base64Forms(value: string): string[] {
  const forms: string[] = []
  const bytes = Buffer.from(value, 'utf8')
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '')
    const total = offset + bytes.length
    // Characters before `start` carry filler bits; after `end` the next byte's.
    const start = offset === 0 ? 0 : offset + 1
    const end = Math.floor(total / 3) * 4 + (total % 3)
    const core = encoded.slice(start, end)
    const lead = offset === 0 ? '' : `${B64_CHAR}?`
    const trail = total % 3 === 0 ? '' : `${B64_CHAR}?`
    for (const variant of new Set([core, core.replace(/\+/g, '-').replace(/\//g, '_')])) forms.push(`${lead}${escapeRegExp(variant)}${trail}`)
  }
  return forms
}

/** `user:password` → [user:password, password]; a bare API key may sit in the user name, with no password. */
function loginParts(login: string): string[] {
  const colon = login.indexOf(':')
  if (colon < 0) return [login]
  return [login, login.slice(colon + 1) || login.slice(0, colon)]
}

const AUTH_SCHEMES = /^(bearer|basic|token|dpop|apikey|api-key|bot|mac|negotiate)$/i

/**
 * `Bearer <token>` → [token]; `Basic <base64>` → [token, ...its login's parts]; a value without a
 * scheme → [value]. The secret part comes last. Two words that only look like a scheme and a token
 * ("correct horse") count as one value unless the second is long enough to be scrubbed on its own.
 */
function headerParts(value: string): string[] {
  const withScheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+)$/.exec(value)
  if (!withScheme) return [value]
  const [, scheme, credentials] = withScheme
  if (scheme.toLowerCase() === 'basic' && /^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) {
    const login = Buffer.from(credentials, 'base64').toString('utf8')
    if (login.includes(':') && !login.includes('\ufffd')) return [credentials, ...loginParts(login)]
  }
  return AUTH_SCHEMES.test(scheme) || credentials.length >= MIN_INJECTED_SECRET_LENGTH ? [credentials] : [value]
}

/** Compiled patterns by secret set: calls of the same tools inject the same secrets, and compiling is most of the cost. */
const patterns = new Map<string, RegExp>()
const MAX_PATTERNS = 256

function patternFor(values: ReadonlySet<string>): RegExp {
  const key = [...values].sort().join('\u0000')
  let pattern = patterns.get(key)
  if (pattern) {
    // Most recently used last, so the oldest goes first when the map is full.
    patterns.delete(key)
  } else {
    pattern = new RegExp(
      [...values]
        .flatMap(formsOf)
        .sort((a, b) => b.length - a.length)
        .join('|'),
      'g',
    )
    if (patterns.size >= MAX_PATTERNS) patterns.delete(patterns.keys().next().value as string)
  }
  patterns.set(key, pattern)
  return pattern
}

export class InjectedSecrets {
  private readonly values = new Set<string>()
  private pattern: RegExp | null = null

  /**
   * Notes a value about to be sent upstream (`source` names it for the refusal), with the parts an
   * upstream may echo on their own once it parsed the header: a `basic` credential's password
   * (`user:password`), and the credentials of a header value that carries its scheme (`Bearer <token>`,
   * `Basic <base64 of user:password>`). The part that is the secret must be long enough to be scrubbed
   * reliably, or the call fails and nothing is sent.
   */
  add(value: string, source: string, kind: 'plain' | 'basic' = 'plain'): void {
    const parts = kind === 'basic' ? loginParts(value) : headerParts(value)
    const secret = parts.at(-1) ?? value
    if (secret.length < MIN_INJECTED_SECRET_LENGTH)
      throw new ToolFailure(
        `${source} is ${secret.length} characters long; the gateway injects only credentials of at least ${MIN_INJECTED_SECRET_LENGTH} characters, because it must be able to scrub them from what the upstream answers`,
        'secret_too_short',
      )
    for (const v of [value, ...parts]) {
      if (this.values.has(v)) continue
      this.values.add(v)
      this.pattern = null
    }
  }

  /** The raw values noted, for the call record's own scrubbing (arguments and idempotency keys an agent sent). */
  get noted(): ReadonlySet<string> {
    return this.values
  }

  scrubText(text: string): string {
    if (this.values.size === 0 || !text) return text
    const pattern = (this.pattern ??= patternFor(this.values))
    pattern.lastIndex = 0
    return pattern.test(text) ? text.replace(pattern, REDACTED) : text
  }

  /** A copy of a JSON-like answer (a tool result, error data, a progress report) with every string and key scrubbed. */
  scrub<T>(value: T): T {
    if (this.values.size === 0) return value
    return this.walk(value) as T
  }

  /** The same failure with its message, detail and upstream reply scrubbed (the class, which decides retries and codes, is kept). */
  scrubError(e: unknown): unknown {
    if (this.values.size === 0 || !(e instanceof Error)) return e
    const reply = (r: string | undefined) => (r === undefined ? undefined : this.scrubText(r))
    if (e instanceof ToolFailure) return new ToolFailure(this.scrubText(e.message), e.errorCode, this.scrub(e.detail), e.rpcCode, reply(e.upstreamReply))
    if (e instanceof TransientError) return new TransientError(this.scrubText(e.message), this.scrub(e.detail), reply(e.upstreamReply))
    const message = this.scrubText(e.message)
    if (message === e.message) return e
    const copy = new Error(message)
    copy.name = e.name
    return copy
  }

  /** Copies only what changes: an answer without a secret in it comes back as it was, without allocating. */
  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.scrubText(value)
    if (Array.isArray(value)) {
      let out: unknown[] | null = null
      for (let i = 0; i < value.length; i++) {
        const scrubbed = this.walk(value[i])
        if (scrubbed !== value[i]) (out ??= value.slice())[i] = scrubbed
      }
      return out ?? value
    }
    if (typeof value === 'object' && value !== null) {
      let changed = false
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value)) {
        const child = (value as Record<string, unknown>)[key]
        const scrubbed = this.walk(child)
        const scrubbedKey = this.scrubText(key)
        if (scrubbed !== child || scrubbedKey !== key) changed = true
        out[scrubbedKey] = scrubbed
      }
      return changed ? out : value
    }
    return value
  }
}
