// Which Policies reach a call and what their rules decide (docs/design/policy.md): one function for
// the gateway, which acts on the decision, and the explainer, which reports its trace. Policies only
// tighten: every matching rule adds a denial, an approval, a lower limit or more redaction, and a
// rule that cannot be evaluated denies the call (fail closed) naming its policy. Pure.
import { isCelError } from '@bufbuild/cel'
import type { PolicyEffect, PolicySpec } from '@/lib/manifests/specs/policy'
import { argumentPaths, type CompiledCondition, compileCondition, type ConditionBindings, type ConditionInput, conditionInput } from './policy-condition'
import type { Person } from '@/lib/identity/person'
import { type FastConditionSet, fastConditionSet } from './compile-fast-condition'

export interface CompiledRule {
  index: number
  when: string
  effect: PolicyEffect
  reason: string
  limit?: { perMinute?: number; perDay?: number }
  redact?: { fields: string[] }
  /** The argument paths the condition reads, so a trace can show the values it compared. */
  reads: string[][]
  condition: CompiledCondition | null
  /** Why the condition could not be planned (it then denies every call it reaches). */
  compileError?: string
}

export interface CompiledPolicy {
  namespace: string
  name: string
  tools: RegExp[]
  /** Namespaces whose agents it reaches: its own and those it names. */
  reach: ReadonlySet<string>
  matchLabels: Record<string, string>
  rules: CompiledRule[]
}

/**
 * The person a call is made for, as conditions read it (null when the caller acts for nobody):
 * `id` is their subject at `issuer`; `groups` a `groups` claim of strings, when their token had one.
 */
export interface PolicyPerson {
  id: string
  issuer: string
  displayName: string
  email: string | null
  groups: string[]
  claims: Readonly<Record<string, unknown>>
}

/** What Policies see of the person an agent acts for (lib/identity/person.ts). */
export function policyPersonOf(person: Person | null | undefined): PolicyPerson | null {
  if (!person) return null
  const groups = Array.isArray(person.claims.groups) ? person.claims.groups.filter((g): g is string => typeof g === 'string') : []
  return { id: person.subject, issuer: person.issuer, displayName: person.displayName, email: person.email, groups, claims: person.claims }
}

export interface PolicyCall {
  agent: { namespace: string; name: string; labels: Record<string, string>; units: string[] }
  tool: ConditionBindings['tool']
  args: Record<string, unknown>
  person: PolicyPerson | null
  now: Date
}

export interface RuleRef {
  policy: string
  rule: number
  reason: string
}

export type RuleOutcome = 'matched' | 'not_matched' | 'error'

export interface RuleTrace extends RuleRef {
  effect: PolicyEffect
  when: string
  outcome: RuleOutcome
  /** The argument values the condition read, by path (`args.amount`); absent ones are left out. */
  values: Record<string, unknown>
  error?: string
}

export interface PolicyDecision {
  /** The first rule that denies: a deny rule that matched, or one that failed to evaluate. */
  deny: (RuleRef & { error?: string }) | null
  approvals: RuleRef[]
  limits: Array<RuleRef & { perMinute?: number; perDay?: number }>
  redactFields: string[]
  /** Every rule of every policy that reaches the call, in policy then rule order. */
  trace: RuleTrace[]
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`)
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Compiles a Policy; Policies compiled with one `shared` set (an epoch's) evaluate their common sub-expressions once per call. */
export function compilePolicy(namespace: string, name: string, spec: PolicySpec, shared: FastConditionSet = fastConditionSet()): CompiledPolicy {
  return {
    namespace,
    name,
    tools: spec.selector.tools.map(globToRegExp),
    reach: new Set([namespace, ...(spec.selector.agents?.namespaces ?? [])]),
    matchLabels: spec.selector.agents?.matchLabels ?? {},
    rules: spec.rules.map((rule, index) => {
      let condition: CompiledCondition | null = null
      let compileError: string | undefined
      try {
        condition = compileCondition(rule.when, shared)
      } catch (e) {
        compileError = e instanceof Error ? e.message : String(e)
      }
      return {
        index,
        when: rule.when,
        effect: rule.effect,
        reason: rule.reason,
        ...(rule.limit ? { limit: rule.limit } : {}),
        ...(rule.redact ? { redact: rule.redact } : {}),
        reads: argumentPaths(rule.when).map((p) => p.path),
        condition,
        ...(compileError ? { compileError } : {}),
      }
    }),
  }
}

/** Whether the policy's selector takes in this agent and tool. */
export function policyReaches(policy: CompiledPolicy, agent: PolicyCall['agent'], toolId: string): boolean {
  return policyReachesAgent(policy, agent) && policy.tools.some((glob) => glob.test(toolId))
}

/** The agent half of the selector: its namespace is within reach and it carries the labels. */
export function policyReachesAgent(policy: CompiledPolicy, agent: Pick<PolicyCall['agent'], 'namespace' | 'labels'>): boolean {
  return policy.reach.has(agent.namespace) && Object.entries(policy.matchLabels).every(([k, v]) => agent.labels[k] === v)
}

export function policyId(policy: Pick<CompiledPolicy, 'namespace' | 'name'>): string {
  return `${policy.namespace}/${policy.name}`
}

export interface EvaluationOptions {
  /** Record every rule's outcome and the values it read (the explainer, policy tests); the gateway acts on the decision alone. */
  trace?: boolean
}

export function evaluatePolicies(policies: readonly CompiledPolicy[], call: PolicyCall, options: EvaluationOptions = { trace: true }): PolicyDecision {
  // A set filtered for this call alone: nothing to keep.
  return evaluateRules(rulesOf(policies.filter((p) => policyReaches(p, call.agent, call.tool.id))), call, options)
}

/**
 * A reaching set as the evaluation walks it: every rule's condition in one array, in policy then rule
 * order, so a call whose rules do not match reads little more than the conditions themselves
 * (docs/design/policy.md#cost-per-call). Kept per set: lib/policy/policy-set.ts keeps the sets per
 * registry epoch.
 */
interface ReachingRules {
  conditions: Array<(input: ConditionInput) => unknown>
  rules: CompiledRule[]
  policies: CompiledPolicy[]
}

const reachingRules = new WeakMap<readonly CompiledPolicy[], ReachingRules>()

/** The set's rules, kept while the set is (policy-set.ts keeps a reaching set for its epoch). */
function keptRulesOf(reaching: readonly CompiledPolicy[]): ReachingRules {
  let flat = reachingRules.get(reaching)
  if (!flat) {
    flat = rulesOf(reaching)
    reachingRules.set(reaching, flat)
  }
  return flat
}

function rulesOf(reaching: readonly CompiledPolicy[]): ReachingRules {
  const flat: ReachingRules = { conditions: [], rules: [], policies: [] }
  for (const policy of reaching)
    for (const rule of policy.rules) {
      flat.conditions.push(rule.condition ?? uncompiled(rule))
      flat.rules.push(rule)
      flat.policies.push(policy)
    }
  return flat
}

function uncompiled(rule: CompiledRule): () => never {
  const message = `the condition could not be compiled: ${rule.compileError}`
  return () => {
    throw new Error(message)
  }
}

/**
 * evaluatePolicies for Policies already known to reach the call (lib/policy/policy-set.ts keeps them
 * per agent and tool). The set's rules are kept with it: a set is never changed once evaluated.
 */
export function evaluateReaching(reaching: readonly CompiledPolicy[], call: PolicyCall, options: EvaluationOptions = {}): PolicyDecision {
  return evaluateRules(reaching.length === 0 ? NO_RULES : keptRulesOf(reaching), call, options)
}

const NO_RULES: ReachingRules = { conditions: [], rules: [], policies: [] }

function evaluateRules({ conditions, rules, policies }: ReachingRules, call: PolicyCall, { trace = false }: EvaluationOptions): PolicyDecision {
  const decision: PolicyDecision = { deny: null, approvals: [], limits: [], redactFields: [], trace: [] }
  if (conditions.length === 0) return decision
  // Read by every rule of every Policy, converted for CEL at most once (docs/design/policy.md#cost-per-call).
  const bindings = conditionInput({ args: call.args, agent: call.agent, tool: call.tool, person: call.person, now: call.now })
  for (let i = 0; i < conditions.length; i++) {
    const result = runCondition(conditions[i], bindings)
    // The rule and its Policy are read only when it matched, failed or is traced: most rules of most calls do neither.
    if (result === false && !trace) continue
    const rule = rules[i]
    const ref: RuleRef = { policy: policyId(policies[i]), rule: rule.index, reason: rule.reason }
    if (trace) {
      const outcome: RuleOutcome = typeof result === 'string' ? 'error' : result ? 'matched' : 'not_matched'
      const entry: RuleTrace = {
        policy: ref.policy,
        rule: ref.rule,
        reason: ref.reason,
        effect: rule.effect,
        when: rule.when,
        outcome,
        values: valuesRead(rule.reads, call.args),
      }
      if (typeof result === 'string') entry.error = result
      decision.trace.push(entry)
    }
    if (result === false) continue
    if (typeof result === 'string') decision.deny ??= { ...ref, error: result }
    else if (rule.effect === 'deny') decision.deny ??= ref
    else if (rule.effect === 'require_approval') decision.approvals.push(ref)
    else if (rule.effect === 'limit') decision.limits.push({ ...ref, ...rule.limit })
    else for (const field of rule.redact?.fields ?? []) if (!decision.redactFields.includes(field)) decision.redactFields.push(field)
  }
  return decision
}

/** Whether the rule matched, or why it could not be evaluated. */
function runCondition(condition: (input: ConditionInput) => unknown, bindings: ConditionInput): boolean | string {
  let result: unknown
  try {
    result = condition(bindings)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  if (typeof result === 'boolean') return result
  if (isCelError(result)) return result.message
  return `the condition gave ${typeof result === 'bigint' ? 'an int' : typeof result}, not a bool`
}

function valuesRead(reads: string[][], args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const path of reads) {
    let value: unknown = args
    for (const segment of path)
      value = value !== null && typeof value === 'object' && Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined
    if (value !== undefined) out[`args.${path.join('.')}`] = value
  }
  return out
}

/** The message a call refused by a policy carries: the policy, the rule and its reason, or why it failed. */
export function denialMessage(toolId: string, deny: NonNullable<PolicyDecision['deny']>): string {
  return deny.error
    ? `${toolId} is refused: rule ${deny.rule} of policy ${deny.policy} could not be evaluated (${deny.error}), and policies fail closed`
    : `${toolId} is refused by policy ${deny.policy} (rule ${deny.rule}): ${deny.reason}`
}

/** What a call that ran outside the gateway broke: the denial, else the approvals it went without; null when it broke none. */
export function violationOf(toolId: string, decision: PolicyDecision): string | null {
  if (decision.deny) return `policy violation: ${denialMessage(toolId, decision.deny)}`
  if (decision.approvals.length === 0) return null
  return `policy violation: ${toolId} ran without the approval ${decision.approvals.map((a) => `policy ${a.policy} (rule ${a.rule}) requires: ${a.reason}`).join('; ')}`
}
