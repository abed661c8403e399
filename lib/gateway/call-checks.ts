// The pipeline's rules as pure functions: the gateway (call-tool.ts) acts on them and the explainer
// (lib/explain/explain-call.ts) reports them without acting, so a rule changed here changes both.
// Each check answers null when the call passes it, else the refusal the gateway records and answers.
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { denialMessage, type PolicyDecision } from '@/lib/policy/evaluate-policies'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { isStorableText, STORABLE_TEXT_MESSAGE } from '@/lib/storage/storable-text'
import { callerKeyScope, type KeyScope, templateKeyScope } from './idempotency'
import { renderIdempotencyKey } from './idempotency-key'
import type { RateRefusal } from './rate-limit'
import type { Executor } from './tool-binding'
import { RPC } from './tool-errors'
import { validateArguments, type Violation } from './validate-args'

export interface Refusal {
  /** The ToolCall outcome it is recorded as. */
  outcome: 'denied' | 'invalid_arguments' | 'rate_limited'
  errorCode: string
  message: string
  rpcCode: number
  data: Record<string, unknown>
  /** Whether the arguments may go into the record (invalid ones never do). */
  logArgs: boolean
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 512
export const CALL_TOOL_DOOR = 'toolroom.call_tool'

/**
 * toolroom.call_tool is a door, not a call: the named tool's pipeline runs and is what gets recorded.
 * Answers the call behind the door, a message when the door was used wrongly, or null for any other tool.
 */
export function unwrapCallTool(
  entry: EffectiveTool | undefined,
  rawArgs: unknown,
  callerKey: string | undefined,
): { name: string; args: unknown; callerKey: string | undefined } | { error: string } | null {
  if (entry?.name !== CALL_TOOL_DOOR) return null
  const a = (rawArgs ?? {}) as { name?: unknown; arguments?: unknown; idempotencyKey?: unknown }
  if (typeof a.name !== 'string' || a.name === CALL_TOOL_DOOR) return { error: `${CALL_TOOL_DOOR} needs "name": the tool to call (not itself)` }
  return { name: a.name, args: a.arguments ?? {}, callerKey: typeof a.idempotencyKey === 'string' ? a.idempotencyKey : callerKey }
}

/** No tool of this name in the agent's effective set at all. */
export function unknownToolRefusal(name: string): Refusal {
  const message = `unknown tool: ${name.slice(0, 200)} is not one of this agent's tools`
  return {
    outcome: 'denied',
    errorCode: 'unknown_tool',
    message,
    rpcCode: RPC.INVALID_PARAMS,
    data: { reason: "unknown: no tool of this name is in the agent's effective set" },
    logArgs: false,
  }
}

/** In the set, but disabled by a toggle, denied by safety, or shadowed (the first such entry of the name). */
export function unavailableRefusal(known: EffectiveTool): Refusal {
  const errorCode = known.state === 'disabled' ? 'disabled' : known.reason?.startsWith('safety.') || known.reason?.includes('safety.') ? 'safety' : known.state
  const message = `${known.name} is not available to this agent: ${known.reason ?? known.state}`
  return {
    outcome: 'denied',
    errorCode,
    message,
    rpcCode: RPC.INVALID_PARAMS,
    data: { state: known.state, reason: known.reason ?? known.state },
    logArgs: true,
  }
}

/** Tools the gateway does not run (image and function tools run inside the agent; os tools when turned off), whatever their arguments. */
export function executorRefusal(executor: Executor, osToolsEnabled: boolean): Refusal | null {
  if (executor.kind === 'none')
    return {
      outcome: 'denied',
      errorCode: 'not_executable',
      message: executor.reason,
      rpcCode: RPC.INVALID_PARAMS,
      data: { reason: executor.reason },
      logArgs: true,
    }
  if (executor.kind === 'os' && !osToolsEnabled) {
    const reason = 'os tools are turned off on this gateway (an admin sets TOOLROOM_ENABLE_OS_TOOLS=1)'
    return { outcome: 'denied', errorCode: 'os_tools_disabled', message: reason, rpcCode: RPC.INVALID_PARAMS, data: { reason }, logArgs: true }
  }
  return null
}

/** The arguments against the entry's inputSchema; every violation is named. */
export function argumentsRefusal(entry: EffectiveTool, rawArgs: unknown): (Refusal & { violations: Violation[] }) | null {
  const violations = validateArguments(entry.inputSchema, rawArgs ?? {})
  if (violations.length === 0) return null
  const message = `invalid arguments for ${entry.name}: ${violations.map((v) => `${v.path} ${v.message}`).join('; ')}`
  return {
    outcome: 'invalid_arguments',
    errorCode: 'schema',
    message,
    rpcCode: RPC.INVALID_PARAMS,
    data: { tool: entry.name, violations },
    logArgs: false,
    violations,
  }
}

/** A Policy denied the call, or one of its rules could not be evaluated (policies fail closed). */
export function policyRefusal(toolId: string, deny: NonNullable<PolicyDecision['deny']>): Refusal {
  return {
    outcome: 'denied',
    errorCode: deny.error ? 'policy_error' : 'policy',
    message: denialMessage(toolId, deny),
    rpcCode: RPC.INVALID_PARAMS,
    data: { policy: deny.policy, rule: deny.rule, reason: deny.reason, ...(deny.error ? { error: deny.error } : {}) },
    logArgs: true,
  }
}

export function rateLimitRefusal(refusal: RateRefusal): Refusal {
  return {
    outcome: 'rate_limited',
    errorCode: `rate_limit_${refusal.applies}_${refusal.window}`,
    message: refusal.message,
    rpcCode: RPC.RATE_LIMITED,
    data: { limit: refusal.limit, window: refusal.window, appliesTo: refusal.applies, retryAfterSeconds: refusal.retryAfterSeconds },
    logArgs: true,
  }
}

/** The key a call uses: the caller's, else the one the tool's idempotencyKeyTemplate renders from the arguments, else none. */
export function callKeyOf(callerKey: string | undefined, template: string | undefined, args: Record<string, unknown>): string | null {
  return callerKey ?? (template ? renderIdempotencyKey(template, args) : null)
}

/**
 * Whose the key is (lib/gateway/idempotency.ts): a key the caller sends is the caller's, per agent and
 * tool; a rendered key describes the side effect, so it is the resolved tool's across agents.
 */
export function keyScopeOf(callerKey: string | undefined, agentId: string, entry: Pick<EffectiveTool, 'name' | 'source'>): KeyScope {
  return callerKey !== undefined ? callerKeyScope(agentId, entry.name) : templateKeyScope(toolStatKey(entry.source, entry.name))
}

export function keyRefusal(key: string): Refusal | null {
  const problem =
    key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH
      ? `the idempotency key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`
      : !isStorableText(key)
        ? `the idempotency key ${STORABLE_TEXT_MESSAGE}`
        : null
  return problem ? { outcome: 'invalid_arguments', errorCode: 'idempotency_key', message: problem, rpcCode: RPC.INVALID_PARAMS, data: {}, logArgs: true } : null
}
