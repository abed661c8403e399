// fetch for every URL a worker calls: each address is checked by the SSRF policy at connect time
// (after DNS resolution, so a name cannot be re-pointed between check and use), every redirect hop
// is checked again, and answers are bounded in time and size.
import dns from 'node:dns'
import { isIP } from 'node:net'
import { Agent } from 'undici'
import { tracingEnabled, withTraceContext } from '@/lib/observability/tracing'
import type { AddressPolicy } from './address-policy'
import { dispatchResponse } from './dispatch-response'

export type OutboundFailure = 'refused' | 'timeout' | 'too_large' | 'network' | 'redirect'

export class OutboundError extends Error {
  constructor(readonly failure: OutboundFailure, message: string) {
    super(message)
    this.name = 'OutboundError'
  }
}

export interface OutboundLimits {
  /** Whole request, redirects included; 0 for none (long-lived streams). */
  timeoutMs?: number
  /** Largest body read; a larger one fails with `too_large`. */
  maxBytes?: number
  maxRedirects?: number
}

export type GuardedFetch = (url: string | URL, init?: RequestInit, limits?: OutboundLimits) => Promise<Response>

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 4 * 1024 * 1024, maxRedirects: 5 }

export function createGuardedFetch(policy: AddressPolicy, defaults: OutboundLimits = {}): GuardedFetch {
  const limitsFor = (limits?: OutboundLimits) => ({ ...DEFAULTS, ...defaults, ...limits })
  const dispatcher = new Agent({
    connect: {
      lookup(hostname: string, options: dns.LookupOptions, callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void) {
        dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
          if (err) return callback(err, [])
          const byName = policy.allowsHostName(hostname)
          for (const { address } of addresses) {
            const refusal = policy.refusal(address)
            // A host allowed by name may resolve outside the allow-list, never into the denied ranges.
            if (refusal && !(byName && !/never allowed/.test(refusal)))
              return callback(new OutboundError('refused', `${hostname} resolves to ${refusal}`), [])
          }
          if (options.all) callback(null, addresses)
          else callback(null, addresses[0].address, addresses[0].family)
        })
      },
    },
  })

  function checkLiteral(url: URL) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('refused', `${url.protocol} URLs are not fetched`)
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (isIP(host)) {
      const refusal = policy.refusal(host)
      if (refusal) throw new OutboundError('refused', refusal)
    }
  }

  return async function guardedFetch(input, init = {}, limits) {
    const { timeoutMs, maxBytes, maxRedirects } = limitsFor(limits)
    const signals = [init.signal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined].filter((s): s is AbortSignal => !!s)
    const signal = signals.length ? AbortSignal.any(signals) : undefined
    let url = new URL(String(input))
    // The upstream continues the active trace (tracing on); a redirect elsewhere drops it with the rest.
    let requestInit: RequestInit = { ...init, headers: headersWithTraceContext(init.headers) }
    for (let hop = 0; ; hop++) {
      checkLiteral(url)
      let response: Response
      try {
        response = await dispatchResponse(dispatcher, url, { method: requestInit.method, headers: requestInit.headers, body: requestInit.body, signal })
      } catch (e) {
        throw toOutboundError(e, url, timeoutMs)
      }
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel()
        if (hop >= maxRedirects) throw new OutboundError('redirect', `more than ${maxRedirects} redirects from ${String(input)}`)
        const next = new URL(location, url)
        // Credentials stay with their origin, as browsers and undici do; and since an operator's auth
        // headers can have any name (X-Api-Key), every header but the plain content ones is dropped.
        if (next.origin !== url.origin) requestInit = { ...requestInit, headers: withoutCredentials(requestInit.headers) }
        url = next
        // 301/302/303 turn a POST into a GET without a body, as browsers do.
        if (response.status !== 307 && response.status !== 308) requestInit = { ...requestInit, method: 'GET', body: undefined }
        continue
      }
      return capBody(response, maxBytes, url, signal, timeoutMs)
    }
  }
}

function headersWithTraceContext(headers: HeadersInit | undefined): HeadersInit | undefined {
  if (!tracingEnabled()) return headers
  const plain: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => (plain[name] = value))
  const traced = withTraceContext(plain)
  return traced === plain ? headers : traced
}

/** Headers that carry no credential, the only ones that follow a redirect to another origin. */
const PORTABLE_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'user-agent', 'mcp-protocol-version'])

function withoutCredentials(headers: HeadersInit | undefined): Headers {
  const kept = new Headers()
  new Headers(headers).forEach((value, name) => {
    if (PORTABLE_HEADERS.has(name)) kept.set(name, value)
  })
  return kept
}

function toOutboundError(e: unknown, url: URL, timeoutMs: number): Error {
  if (e instanceof OutboundError) return e
  const cause = (e as { cause?: unknown }).cause
  if (cause instanceof OutboundError) return cause
  const name = (e as { name?: string }).name
  if (name === 'TimeoutError' || (cause as { name?: string } | undefined)?.name === 'TimeoutError')
    return new OutboundError('timeout', `${url.origin} did not answer within ${timeoutMs} ms`)
  if (name === 'AbortError') return e as Error
  // fetch() wrapped the socket's error as a cause; a dispatcher hands it over as it is.
  const detail = (cause as { code?: string; message?: string } | undefined)?.code ?? (cause as Error | undefined)?.message ?? (e as { code?: string }).code ?? (e as Error).message
  return new OutboundError('network', `${url.origin}: ${detail}`)
}

/** The same response, whose body fails with `too_large` past `maxBytes`. */
function capBody(response: Response, maxBytes: number, url: URL, signal: AbortSignal | undefined, timeoutMs: number): Response {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    void response.body?.cancel()
    throw new OutboundError('too_large', `${url.origin} answered ${declared} bytes, over the limit of ${maxBytes}`)
  }
  // The HTTP parser holds a response to its declared length, so a small declared body needs no counting.
  if (!response.body || declared <= maxBytes) return response
  let seen = 0
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      // A body that stalls must still end when the deadline passes, whatever the source stream does.
      start(controller) {
        signal?.addEventListener('abort', () => controller.error(toOutboundError(signal.reason, url, timeoutMs)), { once: true })
      },
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) controller.error(new OutboundError('too_large', `${url.origin} sent more than ${maxBytes} bytes`))
        else controller.enqueue(chunk)
      },
    }),
  )
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
}
