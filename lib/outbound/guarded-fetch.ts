// fetch for every URL discovery, REST tools and webhooks call: each address is checked by the SSRF
// policy at connect time (after DNS resolution, so a name cannot be re-pointed between check and
// use), every redirect hop is checked again, and answers are bounded in time and size.
import 'server-only'
import { Agent } from 'undici'
import type { AddressPolicy } from '@/lib/net/address-policy'
import { dispatchResponse } from './dispatch-response'
import { checkTarget, guardedLookup } from './guard'
import { answerLimit, OutboundError } from './outbound-error'
import { crossOriginHeaders } from './request-headers'

export interface OutboundLimits {
  /** Whole request, redirects included; 0 for none (long-lived streams). */
  timeoutMs?: number
  /** Largest body read; a larger one fails with `too_large`. */
  maxBytes?: number
  /** The setting `maxBytes` comes from, named when an answer is over it. */
  maxBytesSetting?: string
  maxRedirects?: number
}

export type GuardedFetch = (url: string | URL, init?: RequestInit, limits?: OutboundLimits) => Promise<Response>

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 4 * 1024 * 1024, maxRedirects: 5, maxBytesSetting: undefined as string | undefined }

export function createGuardedFetch(policy: AddressPolicy, defaults: OutboundLimits = {}): GuardedFetch {
  const limitsFor = (limits?: OutboundLimits) => ({ ...DEFAULTS, ...defaults, ...limits })
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy) } })

  return async function guardedFetch(input, init = {}, limits) {
    const { timeoutMs, maxBytes, maxRedirects, maxBytesSetting } = limitsFor(limits)
    const deadline = timeoutMs > 0 ? startDeadline(timeoutMs) : undefined
    const signals = [init.signal, deadline?.signal].filter((s): s is AbortSignal => !!s)
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
    let url = new URL(String(input))
    let requestInit: RequestInit = init
    try {
      for (let hop = 0; ; hop++) {
        checkTarget(url, policy)
        // The deadline stops once the answer handed back is over (its body read in full, or failed):
        // a redirect hop's end does not stop it, and a body never read leaves it running.
        let handedBack = false
        let hopSettled = false
        const onSettled = () => {
          hopSettled = true
          if (handedBack) deadline?.stop()
        }
        let response: Response
        try {
          response = await dispatchResponse(dispatcher, url, {
            method: requestInit.method,
            headers: requestInit.headers,
            body: requestInit.body,
            signal,
            onSettled,
          })
        } catch (e) {
          throw toOutboundError(e, url, timeoutMs)
        }
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel()
          if (hop >= maxRedirects) throw new OutboundError('redirect', `more than ${maxRedirects} redirects from ${String(input)}`)
          const next = new URL(location, url)
          if (next.origin !== url.origin) requestInit = { ...requestInit, headers: crossOriginHeaders(requestInit.headers) }
          url = next
          // 301/302/303 turn a POST into a GET without a body, as browsers do.
          if (response.status !== 307 && response.status !== 308) requestInit = { ...requestInit, method: 'GET', body: undefined }
          continue
        }
        const capped = capBody(response, { maxBytes, maxBytesSetting }, url, signal, timeoutMs)
        handedBack = true
        if (hopSettled) deadline?.stop()
        return capped
      }
    } catch (e) {
      // Nothing is handed back: nothing more to bound.
      deadline?.stop()
      throw e
    }
  }
}

/**
 * The request's time bound: aborts with a TimeoutError, as AbortSignal.timeout does, unless stopped
 * first. AbortSignal.timeout cannot be stopped: every request's signal fired its abort (an event, a
 * DOMException and its stack) when its time was up, long after the answer, in the middle of later work.
 */
function startDeadline(timeoutMs: number): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs)
  // As AbortSignal.timeout's: a pending deadline does not keep the process alive.
  timer.unref()
  return { signal: controller.signal, stop: () => clearTimeout(timer) }
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
  const detail =
    (cause as { code?: string; message?: string } | undefined)?.code ??
    (cause as Error | undefined)?.message ??
    (e as { code?: string }).code ??
    (e as Error).message
  return new OutboundError('network', `${url.origin}: ${detail}`)
}

/** The same response, whose body fails with `too_large` past `maxBytes`. */
function capBody(
  response: Response,
  { maxBytes, maxBytesSetting }: { maxBytes: number; maxBytesSetting?: string },
  url: URL,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Response {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    void response.body?.cancel()
    throw new OutboundError('too_large', `${url.origin} answered ${declared} bytes, over ${answerLimit(maxBytes, maxBytesSetting)}`)
  }
  // The HTTP parser holds a response to its declared length, so a small declared body needs no counting.
  if (!response.body || declared <= maxBytes) return response
  let seen = 0
  // An event stream is counted over its whole life, not per message: say so, or many small messages read as one huge one.
  const stream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '')
  const over = () =>
    stream
      ? `${url.origin}'s event stream carried more than ${answerLimit(maxBytes, maxBytesSetting)}, counted over the whole stream`
      : `${url.origin} sent more than ${answerLimit(maxBytes, maxBytesSetting)}`
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      // A body that stalls must still end when the deadline passes, whatever the source stream does.
      start(controller) {
        signal?.addEventListener('abort', () => controller.error(toOutboundError(signal.reason, url, timeoutMs)), { once: true })
      },
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) controller.error(new OutboundError('too_large', over()))
        else controller.enqueue(chunk)
      },
    }),
  )
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
}
