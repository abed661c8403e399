// Image introspection (docs/design/discovery.md#images, Spring Voyage seed "Authoring Agent Tools"): wait until the agent's
// A2A listener answers `GET /.well-known/agent.json`, then read the tool surface the image declares at
// `GET /a2a/tools` and judge it entry by entry. Every request goes through the SSRF-guarded fetch and
// is bounded in time and size; nothing here touches the database (the worker caches the result).
import type { FieldError } from '@/lib/errors/app-error'
import type { ImageToolDefinition } from '@/lib/effective-tools/catalog-tools'
import { MAX_IMAGE_TOOLS, validateImageTools } from '@/lib/image-tools/validate-image-tools'
import { isObject } from '@/lib/json/unknown-values'
import type { GuardedFetch } from '@/lib/outbound/guarded-fetch'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'

export const AGENT_CARD_PATH = '.well-known/agent.json'
export const TOOLS_PATH = 'a2a/tools'

export const READINESS_TIMEOUT_MS = 30_000
export const ATTEMPT_TIMEOUT_MS = 2_000
export const TOOLS_TIMEOUT_MS = 10_000
export const MAX_BYTES = 1024 * 1024
export const BACKOFF_INITIAL_MS = 250
export const BACKOFF_MAX_MS = 4_000
/** The least time the last readiness attempt is given before the deadline. */
const MIN_ATTEMPT_MS = 100

export type ImageIntrospectionStep = 'readiness' | 'tools'

export type ImageIntrospectionFailure = 'refused' | 'timeout' | 'too_large' | 'network' | 'http_status' | 'invalid_json' | 'not_an_array' | 'redirect'

export interface ImageIntrospectionOptions {
  /** The SSRF-guarded fetch (`createGuardedFetch(policy)`). */
  fetch: GuardedFetch
  /** Slugs of the connectors whose namespaces image tools may not use. */
  connectorSlugs: ReadonlySet<string>
  /** Total time to wait for the listener to come up, attempts and pauses included (default 30 s). */
  readinessTimeoutMs?: number
  /** Bound of one readiness attempt (default 2 s). */
  attemptTimeoutMs?: number
  /** Bound of the `GET /a2a/tools` request, body included (default 10 s). */
  toolsTimeoutMs?: number
  /** Largest body read from either endpoint (default 1 MiB). */
  maxBytes?: number
  signal?: AbortSignal
  /** Pause between readiness attempts; injectable for tests. */
  sleep?: (ms: number) => Promise<void>
}

export interface AgentCardSummary {
  name?: string
  version?: string
}

export interface ImageIntrospection {
  /** `name` and `version` of `/.well-known/agent.json` when it carries them as strings. */
  agentCard: AgentCardSummary | null
  /** Accepted tools, in declaration order. */
  tools: ImageToolDefinition[]
  /** One error per refused entry (or per broken rule of it): field `tools[i].name`, rule, message. */
  refused: FieldError[]
  /** Readiness attempts made (1 when the listener answered at once). */
  attempts: number
  timings: {
    /** From the start until `agent.json` answered. */
    readyMs: number
    /** The `GET /a2a/tools` request, body and validation included. */
    toolsMs: number
  }
}

export class ImageIntrospectionError extends Error {
  readonly step: ImageIntrospectionStep
  readonly failure: ImageIntrospectionFailure
  /** Readiness attempts made before the failure. */
  readonly attempts: number
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number

  constructor(step: ImageIntrospectionStep, failure: ImageIntrospectionFailure, attempts: number, message: string, status?: number) {
    super(message)
    this.name = 'ImageIntrospectionError'
    this.step = step
    this.failure = failure
    this.attempts = attempts
    if (status !== undefined) this.status = status
  }
}

/** Pause before readiness attempt `n + 1` after `n` failed attempts: 250 ms, doubling, at most 4 s. */
export function readinessDelayMs(failedAttempts: number): number {
  return Math.min(BACKOFF_INITIAL_MS * 2 ** Math.max(0, failedAttempts - 1), BACKOFF_MAX_MS)
}

/**
 * `<endpoint>/<path>`, keeping a path prefix of the endpoint (`http://h/agents/a1/` →
 * `http://h/agents/a1/a2a/tools`) and dropping its query and fragment.
 */
export function joinEndpoint(endpoint: string, path: string): string {
  const url = new URL(endpoint)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
  url.search = ''
  url.hash = ''
  return url.toString()
}

interface AttemptFailure {
  failure: ImageIntrospectionFailure
  /** What the listener did, for a person: `HTTP 503`, `connection refused`, … */
  answer: string
  status?: number
}

export async function introspectImage(endpoint: string, options: ImageIntrospectionOptions): Promise<ImageIntrospection> {
  const readinessTimeoutMs = options.readinessTimeoutMs ?? READINESS_TIMEOUT_MS
  const attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS
  const toolsTimeoutMs = options.toolsTimeoutMs ?? TOOLS_TIMEOUT_MS
  const maxBytes = options.maxBytes ?? MAX_BYTES
  const { signal } = options
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, signal))

  let cardUrl: string
  let toolsUrl: string
  try {
    cardUrl = joinEndpoint(endpoint, AGENT_CARD_PATH)
    toolsUrl = joinEndpoint(endpoint, TOOLS_PATH)
  } catch {
    throw new ImageIntrospectionError('readiness', 'refused', 0, `agent endpoint "${endpoint.slice(0, 200)}" is not a valid URL`)
  }
  // Messages end up in stored errors and on pages: never with credentials from the URL.
  const shown = forDisplay(endpoint).replace(/\/+$/, '')
  const cardShown = forDisplay(cardUrl)
  const toolsShown = forDisplay(toolsUrl)
  const parsed = new URL(cardUrl)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ImageIntrospectionError('readiness', 'refused', 0, `agent endpoint ${shown} must be an http or https URL`)
  if (parsed.username || parsed.password)
    throw new ImageIntrospectionError('readiness', 'refused', 0, `agent endpoint ${shown} must not carry a user name or password`)

  // --- readiness -------------------------------------------------------------------------------
  const started = performance.now()
  const deadline = started + readinessTimeoutMs
  let attempts = 0
  let agentCard: AgentCardSummary | null = null
  // Set when a pause was shortened to leave time for one more attempt: that attempt is the last. (The
  // time left after it is about zero, but a timer may fire a little early, which would otherwise
  // squeeze in a pause of a fraction of a millisecond and another attempt.)
  let lastAttempt = false
  for (;;) {
    throwIfAborted(signal)
    attempts++
    const budget = Math.min(attemptTimeoutMs, deadline - performance.now())
    const outcome = await getJson(options.fetch, cardUrl, budget, maxBytes, signal)
    let last: AttemptFailure
    if (outcome.ok) {
      const body = outcome.json
      if (isObject(body)) {
        agentCard = summariseCard(body)
        break
      }
      last = { failure: 'invalid_json', answer: `HTTP 200 with ${describeJson(body)} instead of a JSON object`, status: 200 }
    } else {
      last = outcome
    }
    // An address the guard refuses (the endpoint itself or a redirect to metadata) or a redirect loop
    // will not change by waiting: fail at once.
    if (last.failure === 'refused' || last.failure === 'redirect')
      throw new ImageIntrospectionError(
        'readiness',
        last.failure,
        attempts,
        `agent listener at ${shown}: GET ${cardShown} ${last.failure === 'refused' ? 'refused by the outbound guard' : 'failed'}: ${last.answer}`,
        last.status,
      )
    // Pause before the next attempt, but leave that attempt time to run: the last pause is shortened
    // so that one more attempt fits before the deadline, and none is made when too little time is left.
    const usable = deadline - performance.now() - Math.min(MIN_ATTEMPT_MS, attemptTimeoutMs)
    if (usable <= 0 || lastAttempt)
      throw new ImageIntrospectionError(
        'readiness',
        last.failure,
        attempts,
        `agent listener at ${shown} not ready after ${formatDuration(readinessTimeoutMs)} (${attempts} attempt${attempts === 1 ? '' : 's'}): last answer ${last.answer}`,
        last.status,
      )
    const pause = readinessDelayMs(attempts)
    lastAttempt = usable < pause
    await sleep(Math.min(pause, usable))
    throwIfAborted(signal)
  }
  const readyMs = Math.round(performance.now() - started)

  // --- tools -----------------------------------------------------------------------------------
  const toolsStarted = performance.now()
  const fail = (failure: ImageIntrospectionFailure, message: string, status?: number): never => {
    throw new ImageIntrospectionError('tools', failure, attempts, `agent listener at ${shown}: GET ${toolsShown} ${message}`, status)
  }
  throwIfAborted(signal)
  const outcome = await getJson(options.fetch, toolsUrl, toolsTimeoutMs, maxBytes, signal)
  if (!outcome.ok) {
    const { failure, answer, status } = outcome
    if (failure === 'http_status') fail(failure, `answered ${answer}`, status)
    if (failure === 'invalid_json') fail(failure, `did not answer JSON: ${answer}`, status)
    fail(failure, failure === 'refused' ? `refused by the outbound guard: ${answer}` : `failed: ${answer}`, status)
  }
  const entries = (outcome as { json: unknown }).json
  if (!Array.isArray(entries)) fail('not_an_array', `answered ${describeJson(entries)}; expected a JSON array of {name, description, inputSchema}`, 200)
  if ((entries as unknown[]).length > MAX_IMAGE_TOOLS)
    fail('too_large', `declared ${(entries as unknown[]).length} tools; at most ${MAX_IMAGE_TOOLS} are accepted`, 200)
  const verdict = validateImageTools(entries, options.connectorSlugs)
  const toolsMs = Math.round(performance.now() - toolsStarted)

  return { agentCard, tools: verdict.tools, refused: verdict.errors, attempts, timings: { readyMs, toolsMs } }
}

type JsonOutcome = { ok: true; json: unknown } | ({ ok: false } & AttemptFailure)

/** One bounded GET: 200 with a JSON body, or why not. Aborts by `signal` are rethrown. */
async function getJson(fetch: GuardedFetch, url: string, timeoutMs: number, maxBytes: number, signal: AbortSignal | undefined): Promise<JsonOutcome> {
  let text: string
  let status: number
  timeoutMs = Math.max(1, Math.floor(timeoutMs)) // AbortSignal.timeout takes whole milliseconds
  try {
    const response = await fetch(url, { method: 'GET', headers: { accept: 'application/json' }, signal }, { timeoutMs, maxBytes })
    status = response.status
    if (status !== 200) {
      const snippet = await bodySnippet(response)
      return {
        ok: false,
        failure: 'http_status',
        answer: `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}${snippet ? `: ${snippet}` : ''}`,
        status,
      }
    }
    text = await response.text()
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e
    return { ok: false, ...describeFailure(e, timeoutMs, maxBytes) }
  }
  try {
    return { ok: true, json: JSON.parse(text) }
  } catch (e) {
    const what = text.trim() === '' ? 'an empty body' : `invalid JSON (${(e as Error).message.slice(0, 200)})`
    return { ok: false, failure: 'invalid_json', answer: what, status }
  }
}

function describeFailure(e: unknown, timeoutMs: number, maxBytes: number): AttemptFailure {
  const error = outboundErrorOf(e)
  if (error) {
    switch (error.failure) {
      case 'timeout':
        return { failure: 'timeout', answer: `no answer within ${formatDuration(timeoutMs)}` }
      case 'too_large':
        return { failure: 'too_large', answer: `body over the limit of ${formatBytes(maxBytes)} (${error.message})` }
      default:
        return { failure: error.failure, answer: error.message }
    }
  }
  const name = (e as { name?: string } | null)?.name
  const causeName = (e as { cause?: { name?: string } } | null)?.cause?.name
  // The time bound can fire while the body is being read, after fetch itself resolved.
  if (name === 'TimeoutError' || causeName === 'TimeoutError') return { failure: 'timeout', answer: `no answer within ${formatDuration(timeoutMs)}` }
  const cause = (e as { cause?: { code?: string; message?: string } } | null)?.cause
  return { failure: 'network', answer: cause?.code ?? cause?.message ?? (e as Error)?.message ?? String(e) }
}

/** The first words of an error body, for the message; never more than a few KiB are read. */
async function bodySnippet(response: Response): Promise<string> {
  const body = response.body
  if (!body) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < 2048) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch {
    // a broken or oversized error body is not worth more than its status
  } finally {
    void reader.cancel().catch(() => {})
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim()
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/** The URL without user name, password, query and fragment. */
function forDisplay(raw: string): string {
  const url = new URL(raw)
  url.username = ''
  url.password = ''
  url.search = ''
  url.hash = ''
  return url.toString()
}

function summariseCard(card: Record<string, unknown>): AgentCardSummary {
  const summary: AgentCardSummary = {}
  if (typeof card.name === 'string') summary.name = card.name
  if (typeof card.version === 'string') summary.version = card.version
  return summary
}

function describeJson(value: unknown): string {
  if (value === null) return 'JSON null'
  if (Array.isArray(value)) return 'a JSON array'
  if (typeof value === 'object') return 'a JSON object'
  return `a JSON ${typeof value}`
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = ms / 1000
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw signal.reason ?? new DOMException('introspection aborted', 'AbortError')
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const onAbort = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
