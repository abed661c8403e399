// Readiness: GET /health until it answers {"status":"ok"} (or 404: no such route), with backoff,
// bounded by the readiness timeout.
import 'server-only'
import type { GuardedFetch } from '@/lib/outbound/guarded-fetch'
import { OutboundError } from '@/lib/outbound/outbound-error'
import { describeError, McpIntrospectionError, throwIfAborted } from './errors'
import { sleep } from './signals-and-timers'
import { excerptOf, isObject } from '@/lib/json/unknown-values'

const BACKOFF_START_MS = 250
const BACKOFF_CAP_MS = 4_000

export interface Readiness {
  health: 'ok' | 'absent'
  detail: string
}

export async function waitForHealth(
  url: URL,
  headers: Record<string, string>,
  fetch: GuardedFetch,
  settings: { readinessTimeoutMs: number; requestTimeoutMs: number },
  signal: AbortSignal | undefined,
): Promise<Readiness> {
  const started = Date.now()
  const deadline = started + settings.readinessTimeoutMs
  let delay = BACKOFF_START_MS
  let attempts = 0
  let last = 'none'
  for (;;) {
    throwIfAborted(signal)
    attempts++
    const remaining = Math.max(deadline - Date.now(), 50)
    try {
      const response = await fetch(
        url,
        { method: 'GET', headers: { ...headers, accept: 'application/json' }, signal },
        { timeoutMs: Math.min(settings.requestTimeoutMs, remaining) },
      )
      const text = await response.text()
      if (response.status === 404) {
        return { health: 'absent', detail: `GET ${url.pathname} answered 404: the server has no /health route` }
      }
      if (response.status === 200 && healthIsOk(text)) {
        const took = Date.now() - started
        return { health: 'ok', detail: `GET ${url.pathname} answered 200 {"status":"ok"} (attempt ${attempts}, after ${took} ms)` }
      }
      last = `HTTP ${response.status}${text ? ` ${excerptOf(text, 120)}` : ''}`
    } catch (e) {
      throwIfAborted(signal)
      if (e instanceof OutboundError && e.failure === 'refused') {
        throw new McpIntrospectionError('readiness', `readiness check refused by the outbound guard: GET ${url.href}: ${e.message}`)
      }
      last = e instanceof OutboundError ? `${e.failure}: ${e.message}` : describeError(e)
    }
    const wait = Math.min(delay, deadline - Date.now())
    if (wait <= 0) {
      throw new McpIntrospectionError(
        'readiness',
        `readiness timed out after ${settings.readinessTimeoutMs} ms: GET ${url.href} never answered 200 {"status":"ok"} (${attempts} attempt${attempts === 1 ? '' : 's'}); last answer: ${last}`,
      )
    }
    await sleep(wait, signal)
    delay = Math.min(delay * 2, BACKOFF_CAP_MS)
  }
}

function healthIsOk(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown
    return isObject(body) && body.status === 'ok'
  } catch {
    return false
  }
}
