// Retries on transient failures (connection errors, timeouts, 502/503/504), only for tools whose
// repeat is harmless: read-only or idempotent. Delays grow exponentially with full jitter. The call
// has one deadline (docs/design/gateway.md, "One deadline per call"): every attempt and every backoff
// come out of the same budget, so an upstream that stalls cannot stretch a call to attempts × timeout.
import 'server-only'
import { config } from '@/lib/config'
import { ToolFailure, TransientError } from './tool-errors'

export interface RetryPolicy {
  maxAttempts: number
  baseMs: number
  maxMs: number
}

export function defaultRetry(): RetryPolicy {
  const { TOOLROOM_GATEWAY_MAX_ATTEMPTS, TOOLROOM_GATEWAY_RETRY_BASE_MS } = config()
  return { maxAttempts: TOOLROOM_GATEWAY_MAX_ATTEMPTS, baseMs: TOOLROOM_GATEWAY_RETRY_BASE_MS, maxMs: 2000 }
}

/** The whole call's time, attempts and backoff included, and the setting it comes from (named when it runs out). */
export interface CallBudget {
  totalMs: number
  source: string
}

/** A REST tool's budget: its endpoint's `timeoutMs`, else 30 s. */
export function restBudget(timeoutMs: number | undefined): CallBudget {
  return timeoutMs !== undefined ? { totalMs: timeoutMs, source: 'timeoutMs' } : { totalMs: 30_000, source: 'the default for REST tools' }
}

/** A forwarded MCP call's budget: the operator's setting (a Tool of type mcp has no timeout of its own). */
export function mcpBudget(): CallBudget {
  return { totalMs: config().TOOLROOM_GATEWAY_MCP_TIMEOUT_MS, source: 'TOOLROOM_GATEWAY_MCP_TIMEOUT_MS' }
}

/** The deadline rule of a call, in words (the explainer's trace says it as the gateway applies it). */
export function deadlineRule(budget: CallBudget, retryable: boolean, policy: RetryPolicy = defaultRetry()): string {
  const whole = `one deadline of ${budget.totalMs} ms (${budget.source}) for the whole call`
  if (!retryable || policy.maxAttempts === 1)
    return `${whole}; ${retryable ? 'one attempt (TOOLROOM_GATEWAY_MAX_ATTEMPTS is 1)' : 'one attempt, never retried (the tool is neither read-only nor idempotent)'}`
  return (
    `${whole}, retries and backoff included: up to ${policy.maxAttempts} attempts on transient failures, each given the time still left, ` +
    `and no retry starts with less than ${minAttemptMs(budget.totalMs)} ms left`
  )
}

/** Delay before attempt `attempt + 1` (attempt counts from 1): uniform in [0, min(max, base·2^(attempt-1))]. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1)))
}

/**
 * The least time a retry must have left once its backoff is over: a tenth of the budget, at least
 * 100 ms. An attempt with less would mostly time out, and still cost the upstream a request.
 */
export function minAttemptMs(totalMs: number): number {
  return Math.max(100, Math.ceil(totalMs / 10))
}

/** The failure that ends a call whose budget ran out: what happened last, and after how many attempts. */
export function deadlineFailure(budget: CallBudget, attempts: number, last: TransientError): ToolFailure {
  const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`
  return new ToolFailure(
    `the call's deadline of ${budget.totalMs} ms (${budget.source}, retries included) was hit after ${tries}; the last: ${last.message}`,
    'deadline_exceeded',
    { ...last.detail, failure: 'deadline', budgetMs: budget.totalMs, retried: attempts > 1 },
    undefined,
    last.upstreamReply,
  )
}

/**
 * Runs `run` until it succeeds, fails for good, has had `policy.maxAttempts` tries, or the budget
 * leaves too little for another: each attempt is handed the milliseconds still left as its timeout.
 */
export async function withRetries<T>(
  retryable: boolean,
  budget: CallBudget,
  run: (attempt: number, attemptMs: number) => Promise<T>,
  onAttempt: (attempts: number) => void,
  {
    policy = defaultRetry(),
    now = () => performance.now(),
    signal,
  }: {
    policy?: RetryPolicy
    now?: () => number
    /** The caller's cancellation: an attempt it cut short is not retried. */
    signal?: AbortSignal
  } = {},
): Promise<T> {
  const deadline = now() + budget.totalMs
  for (let attempt = 1; ; attempt++) {
    onAttempt(attempt)
    try {
      return await run(attempt, Math.max(1, Math.floor(deadline - now())))
    } catch (e) {
      if (!(e instanceof TransientError) || signal?.aborted) throw e
      // Too little left for any further attempt: the deadline, not this failure, is what ended the call.
      const spare = deadline - now() - minAttemptMs(budget.totalMs)
      if (spare < 0) throw deadlineFailure(budget, attempt, e)
      if (!retryable || attempt >= policy.maxAttempts) throw e
      // The backoff never eats the time the next attempt needs.
      await new Promise((resolve) => setTimeout(resolve, Math.min(backoffMs(attempt, policy), spare)))
    }
  }
}
