// What goes wrong with an outbound request, as a type callers branch on (never on message text).
import type { RefusalCode } from '@/lib/net/address-policy'

export type OutboundFailure = 'refused' | 'timeout' | 'too_large' | 'network' | 'redirect'

/** Why the guard refused a request: an address rule, or a URL scheme other than http(s). */
export type OutboundRefusal = RefusalCode | 'scheme'

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
    /** Set when `failure` is `refused`. */
    readonly refusal?: OutboundRefusal,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

/** The OutboundError behind `e`, however deep fetch, a body stream or an SDK transport wrapped it. */
export function outboundErrorOf(e: unknown): OutboundError | null {
  for (let current = e, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++)
    if (current instanceof OutboundError) return current
  return null
}

/** The size limit of answers, as refusals name it: the bytes, and the setting they come from. */
export function answerLimit(maxBytes: number, setting: string | undefined): string {
  return `the limit of ${maxBytes} bytes for its answers${setting ? ` (${setting})` : ''}`
}
