// Retries on transient failures (connection errors, timeouts, 502/503/504), only for tools whose
// repeat is harmless: read-only or idempotent. Delays grow exponentially with full jitter.
import 'server-only'
import { config } from '@/lib/config'

export interface RetryPolicy {
  maxAttempts: number
  baseMs: number
  maxMs: number
}

export function defaultRetry(): RetryPolicy {
  const { TOOLROOM_GATEWAY_MAX_ATTEMPTS, TOOLROOM_GATEWAY_RETRY_BASE_MS } = config()
  return { maxAttempts: TOOLROOM_GATEWAY_MAX_ATTEMPTS, baseMs: TOOLROOM_GATEWAY_RETRY_BASE_MS, maxMs: 2000 }
}

/** Thrown by executors for failures a retry may cure. */
export class TransientError extends Error {
  constructor(
    message: string,
    readonly detail?: Record<string, unknown>,
    /** What the upstream answered, raw (see ToolFailure.upstreamReply). */
    readonly upstreamReply?: string,
  ) {
    super(message)
    this.name = 'TransientError'
  }
}

/** Delay before attempt `attempt + 1` (attempt counts from 1): uniform in [0, min(max, base·2^(attempt-1))]. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1)))
}

export async function withRetries<T>(
  retryable: boolean,
  run: (attempt: number) => Promise<T>,
  onAttempt: (attempts: number) => void,
  policy: RetryPolicy = defaultRetry(),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    onAttempt(attempt)
    try {
      return await run(attempt)
    } catch (e) {
      if (!(e instanceof TransientError) || !retryable || attempt >= policy.maxAttempts) throw e
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, policy)))
    }
  }
}
