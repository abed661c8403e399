// A Tool's status is observed, not assumed: Kubernetes-style conditions, each saying whether one
// thing a call depends on holds right now, and a phase that sums them up (README, "Tool status").
// Pure: the facts come from lib/tools/refresh-tool-status.ts.
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { secretRefProblem } from '@/lib/secrets/secret-ref'
import { describeTokenFailure } from '@/lib/upstream-auth/upstream-token-rules'

export type ConditionStatus = 'True' | 'False' | 'Unknown'

export interface ToolCondition {
  type: ConditionType
  status: ConditionStatus
  /** One CamelCase word, for machines and filters. */
  reason: string
  /** A sentence for people. */
  message: string
  /** When `status` last changed (ISO 8601), kept while only the message changes. */
  lastTransitionTime: string
}

/** Every phase a Tool row holds: Pending from its write until its first observation, then observed. */
export const TOOL_PHASES = ['Pending', 'Ready', 'Degraded', 'Failed'] as const
export type ToolPhase = Exclude<(typeof TOOL_PHASES)[number], 'Pending'>

/**
 * What a call needs (a False one means calls cannot work: phase Failed) and how calls have gone
 * (a False one means they mostly fail: phase Degraded). Unknown needs make the phase Degraded.
 */
export const BLOCKING_CONDITIONS = ['SecretAvailable', 'TokenIssued', 'ServerReady', 'EndpointAllowed', 'Runnable'] as const
export const CONDITION_TYPES = [...BLOCKING_CONDITIONS, 'CallsSucceeding'] as const
export type ConditionType = (typeof CONDITION_TYPES)[number]

/** Calls looked at for CallsSucceeding: this hour and the one before. */
export const RECENT_HOURS = 2
/** Below this many recent calls a failure rate says too little to call a tool degraded. */
export const MIN_RECENT_CALLS = 10
/** A tool whose recent calls fail at this rate or more is degraded. */
export const DEGRADED_FAILURE_RATE = 0.5

export type SecretFact = { found: false } | { found: true; keys: string[] }
/** How the last access-token request of an `oauth2` credential went (none yet: no fact). */
export type TokenFact = { issued: true } | { issued: false; error: string; description: string | null }
export type ServerFact = { found: false } | { found: true; phase: string; lastError: string | null; listsTool: boolean; upstreamTool: string }
/** The outbound policy's verdict on a REST endpoint's host (after DNS for names it does not allow by name). */
export type EndpointFact = { allowed: true; how: string } | { allowed: false; why: string } | { unresolved: string } | { unknown: string }

export interface ToolFacts {
  namespace: string
  name: string
  spec: ToolSpec
  /** The Secret `spec.endpoint.auth.secretRef` names, looked up in the Tool's own namespace. */
  secret?: SecretFact
  /** The last token request of `spec.endpoint.auth.oauth2`'s credential. */
  token?: TokenFact
  /** The LanguageTool `spec.mcpServerRef` names. */
  server?: ServerFact
  endpoint?: EndpointFact
  osToolsEnabled: boolean
  recent: { calls: number; failures: number }
}

type Observed = Omit<ToolCondition, 'lastTransitionTime'>

/** The conditions that apply to this tool, in CONDITION_TYPES order, without transition times. */
export function observeToolConditions(facts: ToolFacts): Observed[] {
  const { spec } = facts
  const out: Observed[] = []
  if (spec.type === 'rest') {
    const auth = spec.endpoint?.auth
    if (auth && auth.type !== 'none') out.push(secretCondition(auth, facts))
    if (auth?.type === 'oauth2' && auth.oauth2 && facts.token) out.push(tokenCondition(auth.oauth2, facts.token))
  }
  if (spec.type === 'mcp') out.push(serverCondition(facts))
  if (spec.type === 'rest') out.push(endpointCondition(facts))
  if (spec.type === 'os')
    out.push(
      facts.osToolsEnabled
        ? { type: 'Runnable', status: 'True', reason: 'OsToolsEnabled', message: 'the gateway runs os tools (TOOLROOM_ENABLE_OS_TOOLS=1)' }
        : { type: 'Runnable', status: 'False', reason: 'OsToolsDisabled', message: 'the gateway does not run os tools unless TOOLROOM_ENABLE_OS_TOOLS=1' },
    )
  out.push(callsCondition(facts.recent))
  return out
}

function secretCondition(auth: NonNullable<NonNullable<ToolSpec['endpoint']>['auth']>, facts: ToolFacts): Observed {
  const type = 'SecretAvailable'
  const secretRef = auth.type === 'oauth2' ? auth.oauth2?.clientSecretRef : auth.secretRef
  if (!secretRef)
    return { type, status: 'False', reason: 'NoSecretRef', message: `auth type "${auth.type}" names no secretRef, so calls would carry no credential` }
  const ref = secretRef.name
  const outside = secretRefProblem(ref, facts.namespace)
  if (outside) return { type, status: 'False', reason: 'SecretOutsideNamespace', message: outside }
  const name = ref.slice(ref.indexOf('/') + 1)
  const secret = facts.secret ?? { found: false }
  if (!secret.found) return { type, status: 'False', reason: 'SecretNotFound', message: `Secret "${facts.namespace}/${name}" does not exist` }
  if (secret.keys.length === 0) return { type, status: 'False', reason: 'SecretEmpty', message: `Secret "${facts.namespace}/${name}" holds no value` }
  const key = secretRef.key
  if (key !== undefined && !secret.keys.includes(key))
    return {
      type,
      status: 'False',
      reason: 'SecretKeyMissing',
      message: `Secret "${facts.namespace}/${name}" has no key "${key}" (it has ${secret.keys.map((k) => `"${k}"`).join(', ')})`,
    }
  return { type, status: 'True', reason: 'SecretFound', message: `Secret "${facts.namespace}/${name}" holds ${key ? `the key "${key}"` : 'a value'}` }
}

const TOKEN_FAILURE_REASONS: Record<string, string> = {
  unreachable: 'ServerUnreachable',
  refused_by_policy: 'RefusedByPolicy',
  no_metadata: 'NoMetadata',
  invalid_response: 'InvalidTokenResponse',
  secret_unavailable: 'SecretUnavailable',
}

function tokenCondition(oauth2: NonNullable<NonNullable<NonNullable<ToolSpec['endpoint']>['auth']>['oauth2']>, token: TokenFact): Observed {
  const type = 'TokenIssued'
  const server = oauth2.issuer ?? oauth2.tokenUrl!
  if (token.issued)
    return { type, status: 'True', reason: 'TokenIssued', message: `the authorization server ${server} issues client "${oauth2.clientId}" its tokens` }
  // The server's own error code (invalid_client, invalid_scope, ...) is in the message; the reason says who refused.
  return {
    type,
    status: 'False',
    reason: TOKEN_FAILURE_REASONS[token.error] ?? 'TokenRefused',
    message: clip(describeTokenFailure(token.error, token.description, server), 500),
  }
}

function serverCondition(facts: ToolFacts): Observed {
  const type = 'ServerReady'
  const ref = facts.spec.mcpServerRef?.name ?? ''
  const server = facts.server ?? { found: false }
  if (!server.found) return { type, status: 'False', reason: 'ServerNotFound', message: `the LanguageTool "${ref}" does not exist` }
  if (server.phase === 'Failed')
    return {
      type,
      status: 'False',
      reason: 'ServerFailed',
      message: `the LanguageTool "${ref}" failed its last discovery${server.lastError ? `: ${clip(server.lastError, 300)}` : ''}`,
    }
  if (server.phase !== 'Ready') return { type, status: 'Unknown', reason: 'ServerPending', message: `the LanguageTool "${ref}" has not been discovered yet` }
  if (!server.listsTool)
    return {
      type,
      status: 'False',
      reason: 'ToolNotListed',
      message: `the LanguageTool "${ref}" is Ready but its tools/list has no tool "${server.upstreamTool}"`,
    }
  return { type, status: 'True', reason: 'ServerReady', message: `the LanguageTool "${ref}" is Ready and lists "${server.upstreamTool}"` }
}

function endpointCondition(facts: ToolFacts): Observed {
  const type = 'EndpointAllowed'
  const endpoint = facts.endpoint
  if (!endpoint) return { type, status: 'Unknown', reason: 'NotChecked', message: 'the endpoint has not been checked against the outbound policy yet' }
  if ('unresolved' in endpoint) return { type, status: 'False', reason: 'HostNotResolved', message: endpoint.unresolved }
  if ('unknown' in endpoint) return { type, status: 'Unknown', reason: 'DnsUnavailable', message: endpoint.unknown }
  if (!endpoint.allowed) return { type, status: 'False', reason: 'RefusedByPolicy', message: endpoint.why }
  return { type, status: 'True', reason: 'AllowedByPolicy', message: endpoint.how }
}

function callsCondition({ calls, failures }: { calls: number; failures: number }): Observed {
  const type = 'CallsSucceeding'
  const window = `in the last ${RECENT_HOURS} hours`
  // No calls, or too few to judge that mostly fail, say nothing either way: "yes" would vouch for a tool
  // whose every call could fail (a Failed tool nobody called yet). Unknown here leaves the phase alone.
  if (calls === 0) return { type, status: 'Unknown', reason: 'NoRecentCalls', message: `no calls ${window}` }
  const said = `${failures} of ${calls} call${calls === 1 ? '' : 's'} failed ${window}`
  const high = failures / calls >= DEGRADED_FAILURE_RATE
  if (calls < MIN_RECENT_CALLS)
    return { type, status: high ? 'Unknown' : 'True', reason: 'FewRecentCalls', message: high ? `${said}: too few calls to judge` : said }
  if (high) return { type, status: 'False', reason: 'HighFailureRate', message: `${said} (${Math.round((100 * failures) / calls)} %)` }
  return { type, status: 'True', reason: 'FailureRateLow', message: said }
}

/** Stamps transition times: a condition whose status did not change keeps the time it had. */
export function withTransitionTimes(observed: Observed[], previous: readonly ToolCondition[], now: Date): ToolCondition[] {
  const before = new Map(previous.map((c) => [c.type, c]))
  return observed.map((c) => {
    const prior = before.get(c.type)
    return { ...c, lastTransitionTime: prior && prior.status === c.status ? prior.lastTransitionTime : now.toISOString() }
  })
}

export function phaseOf(conditions: readonly Pick<ToolCondition, 'type' | 'status'>[]): ToolPhase {
  const blocking = conditions.filter((c) => (BLOCKING_CONDITIONS as readonly string[]).includes(c.type))
  if (blocking.some((c) => c.status === 'False')) return 'Failed'
  if (blocking.some((c) => c.status === 'Unknown') || conditions.some((c) => c.status === 'False')) return 'Degraded'
  return 'Ready'
}

/** The conditions that count against the phase: a False one, or an Unknown need (an Unknown CallsSucceeding, with nothing to judge by, is none). */
export const phaseProblems = <C extends { type: string; status: string }>(conditions: readonly C[]): C[] =>
  conditions.filter((c) => c.status === 'False' || (c.status === 'Unknown' && (BLOCKING_CONDITIONS as readonly string[]).includes(c.type)))

/** Whether two condition lists say the same thing (times aside, since those follow from the rest). */
export function sameConditions(a: readonly ToolCondition[], b: readonly ToolCondition[]): boolean {
  return a.length === b.length && a.every((c, i) => c.type === b[i].type && c.status === b[i].status && c.reason === b[i].reason && c.message === b[i].message)
}

/** The MCP tool name a `type: mcp` Tool calls on its server. */
export const upstreamToolName = (spec: ToolSpec, name: string): string => spec.mcpServerRef?.tool ?? name.slice(name.lastIndexOf('.') + 1)

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
