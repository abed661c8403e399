// How each ToolCall outcome counts in the statistics (README "Statistics" says the same).
//   calls:    every call with a final outcome (everything but pending_approval, which is still waiting)
//   failures: the tool ran, or was tried, and failed (failed)
//   refused:  Toolroom stopped the call before the tool ran (denied, invalid_arguments, rate_limited,
//             rejected by an approver, expired waiting for approval); counted as calls, not failures
//   latency:  only calls that reached the tool (succeeded, failed, approved), so quick refusals do
//             not flatter the percentiles
// deduplicated answers are calls (the agent asked and got an answer) without a latency of their own.
export const CALL_OUTCOMES = [
  'succeeded',
  'failed',
  'denied',
  'invalid_arguments',
  'rate_limited',
  'deduplicated',
  'pending_approval',
  'approved',
  'rejected',
  'expired',
] as const
export type CallOutcome = (typeof CALL_OUTCOMES)[number]

export const UNCOUNTED_OUTCOMES: readonly CallOutcome[] = ['pending_approval']
export const FAILURE_OUTCOMES: readonly CallOutcome[] = ['failed']
export const REFUSED_OUTCOMES: readonly CallOutcome[] = ['denied', 'invalid_arguments', 'rate_limited', 'rejected', 'expired']
export const TIMED_OUTCOMES: readonly CallOutcome[] = ['succeeded', 'failed', 'approved']

export const CALL_CHANNELS = ['mcp', 'rest', 'ingest'] as const

/**
 * How each outcome reads to people. An approver's "Deny" is stored as `rejected` (the API's word, kept
 * for its clients) but reads as the queue says it, "denied by approver"; a policy's refusal reads
 * "denied by policy", so the one word never names two decisions.
 */
export const OUTCOME_LABELS: Record<CallOutcome, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  denied: 'denied by policy',
  invalid_arguments: 'invalid arguments',
  rate_limited: 'rate limited',
  deduplicated: 'deduplicated',
  pending_approval: 'pending approval',
  approved: 'approved',
  rejected: 'denied by approver',
  expired: 'expired',
}

export const outcomeLabel = (outcome: string): string => OUTCOME_LABELS[outcome as CallOutcome] ?? outcome.replace(/_/g, ' ')

/** Failure rate as a fraction (0..1), or null when there were no calls. */
export const failureRate = (calls: number, failures: number): number | null => (calls > 0 ? failures / calls : null)
