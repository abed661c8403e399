// "Can agent X call tool Y?" (POST /api/v1/agents/{id}/explain): what the gateway would do with the
// call now, and why, without calling anything, counting against a limit, claiming an idempotency key
// or writing a record. It walks the gateway's pipeline in the gateway's order (lib/gateway/call-tool.ts:
// effective set → executor → arguments → rate limits → idempotency key → approval) with the
// gateway's own checks (lib/gateway/call-checks.ts) on the gateway's own view of the agent
// (agentTools), and reads rate-limit counters and held keys without taking them. Steps after the one
// that decides are still worked out, marked not reached, so the reader sees everything at once.
import 'server-only'
import { approvalPolicyFor } from '@/lib/approvals/request-approval'
import { prisma } from '@/lib/db'
import { agentAllowed } from '@/lib/effective-tools/allowed-agents'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { nearestToggle, reservedDenialOf, resolveEffectiveTools, safetyDenialOf } from '@/lib/effective-tools/resolve-effective-tools'
import { registryReader } from '@/lib/effective-tools/registry-reader'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { agentTools } from '@/lib/gateway/agent-tools'
import {
  argumentsRefusal,
  unwrapCallTool,
  CALL_TOOL_DOOR,
  callKeyOf,
  executorRefusal,
  keyRefusal,
  keyScopeOf,
  policyRefusal,
  rateLimitRefusal,
  type Refusal,
  unavailableRefusal,
  unknownToolRefusal,
} from '@/lib/gateway/call-checks'
import { osToolsEnabled } from '@/lib/gateway/executors/os'
import { heldKey } from '@/lib/gateway/idempotency'
import { storableKey } from '@/lib/gateway/idempotency-key'
import { agentRateLimit, peekRate, rateWindows, withPolicyWindows } from '@/lib/gateway/rate-limit'
import type { PolicyDecision } from '@/lib/policy/evaluate-policies'
import { decidePolicies } from '@/lib/policy/policy-set'
import { parseRedactFields, redactTree } from '@/lib/gateway/redact'
import { deadlineRule, mcpBudget, restBudget } from '@/lib/gateway/retry'
import { type Binding, bindingFor } from '@/lib/gateway/tool-binding'
import { RPC } from '@/lib/gateway/tool-errors'
import type { Violation } from '@/lib/gateway/validate-args'
import { notFound } from '@/lib/errors/app-error'
import { identityChain } from '@/lib/identity/identity-chain'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Row } from '@/lib/resources/kind-adapters'
import { type ResourceView, toResourceView } from '@/lib/resources/resource-view'
import { reservedNamespaceOf } from '@/lib/tools/naming'
import {
  allowedAgentEntry,
  bindConnectorDraft,
  draftOf,
  enableToggleDraft,
  type FixDraft,
  grantDraft,
  withAgentAllowed,
  withoutDeniedNamespace,
} from './fix-drafts'
import { type Decision, type ExplainRequest, type Explanation, type Step, type StepName, STEPS } from './explanation-schema'
import { type CandidateTrace, traceCandidates } from './trace-candidates'

const DECISION_OF_STEP: Record<Exclude<StepName, 'approval'>, (r: Refusal) => Decision> = {
  'effective-set': (r) => (r.errorCode === 'unknown_tool' ? 'unknown_tool' : 'denied'),
  executor: () => 'denied',
  arguments: () => 'invalid_arguments',
  policies: () => 'denied',
  'rate-limits': () => 'rate_limited',
  idempotency: () => 'invalid_arguments',
}

export async function explainCall(row: Row, request: ExplainRequest): Promise<Explanation> {
  const tools = await agentTools(row.id)
  if (!tools) throw notFound(`Agent "${row.namespace}/${row.name}"`)
  const agent = { id: tools.agent.id, namespace: tools.agent.namespace, name: tools.agent.name, unit: tools.agent.unit }
  const onBehalfOf = request.person ? { ...request.person, displayName: request.person.displayName ?? request.person.subject } : null
  const base = { agent, tool: request.tool, checkedAt: new Date().toISOString() }

  const door = unwrapCallTool(tools.enabled.get(request.tool), request.arguments, request.idempotencyKey)
  if (door && 'error' in door)
    return doorMisused({ ...base, identity: { onBehalfOf, chain: identityChain(onBehalfOf, agent, request.tool, null) } }, door.error)
  const name = door ? door.name : request.tool
  const rawArgs = door ? door.args : request.arguments
  const callerKey = door ? door.callerKey : request.idempotencyKey
  const args = (rawArgs ?? {}) as Record<string, unknown>

  const input = await loadResolverInput('Agent', row)
  const set = resolveEffectiveTools(input)
  const named = [...set.tools, ...set.excluded].filter((e) => e.name === name)
  const candidates = traceCandidates(named, (e) => e.state === 'denied' && reservedDenialOf(e.name, e.tier, input.connectorSlugs) !== null)
  const winner = candidates.find((c) => c.role === 'winner')?.entry ?? null

  // 1-2. The effective set and safety, as the gateway holds them.
  const entry = tools.enabled.get(name)
  const known = entry ? undefined : tools.unavailable.get(name)
  const steps: Step[] = []
  const refusals: Array<{ step: StepName; refusal: Refusal }> = []
  // A step after the one that decides is not reached; it still says what it would have said.
  const note = (step: StepName, refusal: Refusal | null, passed: string) => {
    const decided = refusals.length > 0
    if (refusal) refusals.push({ step, refusal })
    const detail = refusal?.message ?? passed
    steps.push({
      step,
      outcome: decided ? 'not-reached' : refusal ? 'refused' : 'passed',
      detail: decided ? `not reached; ${refusal ? 'would also refuse' : 'would pass'}: ${detail}` : detail,
    })
  }
  note(
    'effective-set',
    entry ? null : known ? unavailableRefusal(known) : unknownToolRefusal(name),
    `${name} is in the agent's enabled set (${entry?.provenance})`,
  )

  // What the remaining steps would say: of the enabled entry, else of the entry the refusal names.
  const target = entry ?? known ?? null
  let executor: Explanation['executor'] = null
  let violations: Violation[] = []
  let windows: Explanation['rateLimits']['windows'] = []
  let idempotency: Explanation['idempotency'] = { key: null, source: 'none', template: null, scope: null, problem: null, withheld: null, heldBy: null }
  let approval: Explanation['approval'] = null
  let safety: Explanation['safety'] = null
  let policy: PolicyDecision | null = null
  let binding: Binding | null = null
  if (target) {
    binding = await bindingFor(target, registryReader())
    executor = { kind: binding.executor.kind, reason: binding.executor.kind === 'none' ? binding.executor.reason : null }
    note('executor', executorRefusal(binding.executor, osToolsEnabled()), executorText(binding.executor, target))

    const invalid = argumentsRefusal(target, rawArgs)
    violations = invalid?.violations ?? []
    note('arguments', invalid, 'the arguments match the inputSchema')

    const { agent: a } = tools
    // The person asked about, as far as the request names them: no email, groups or claims to read.
    const person = onBehalfOf
      ? { id: onBehalfOf.subject, issuer: onBehalfOf.issuer, displayName: onBehalfOf.displayName, email: null, groups: [], claims: {} }
      : null
    policy = await decidePolicies({ namespace: a.namespace, name: a.name, labels: a.labels, units: a.units }, target, args, person, new Date(), { trace: true })
    note('policies', policy.deny ? policyRefusal(target.name, policy.deny) : null, policiesText(policy))
    // A refusal's detail is the gateway's message; the trace of every rule follows it.
    if (policy.deny) steps[steps.length - 1].detail += `. Rules: ${policiesText(policy)}`

    const now = Date.now()
    const peek = await peekRate(
      withPolicyWindows(rateWindows(target.name, target.rateLimit, tools.agent.id, agentRateLimit(tools.agent.spec), now), policy.limits, tools.agent.id, now),
    )
    windows = peek.usage.map((u) => ({
      appliesTo: u.applies,
      window: u.length,
      limit: u.window.limit,
      used: u.used,
      remaining: Math.max(0, u.window.limit - u.used),
      resetsInSeconds: u.window.retryAfterSeconds,
    }))
    note(
      'rate-limits',
      peek.refusal ? rateLimitRefusal(peek.refusal) : null,
      windows.length
        ? `headroom now: ${windows.map((w) => `${w.remaining} of ${w.limit} per ${w.window} (${w.appliesTo})`).join(', ')}`
        : 'no rate limit applies to this tool or agent',
    )

    const key = callKeyOf(callerKey, binding.idempotencyKeyTemplate, args)
    const badKey = key !== null ? keyRefusal(key) : null
    const scope = keyScopeOf(callerKey, tools.agent.id, target)
    // Whether a key is held is withheld when the key carries a value the call log redacts (the log
    // stores such a key hashed): otherwise a reader could confirm guesses of redacted arguments.
    const redacted = new Set<string>()
    redactTree('args', args, parseRedactFields(binding.redactFields), redacted)
    const carriesRedacted = key !== null && storableKey(key, redacted) !== key
    const heldKeyBy = key !== null && !badKey && !carriesRedacted ? await heldKey(scope, key) : null
    idempotency = {
      key: key === null ? null : key.slice(0, 600),
      source: callerKey !== undefined ? 'caller' : key !== null ? 'template' : 'none',
      template: binding.idempotencyKeyTemplate ?? null,
      scope: key === null ? null : callerKey !== undefined ? 'agent' : 'tool',
      problem: badKey?.message ?? null,
      withheld: carriesRedacted ? 'the key carries a redacted argument (observability.redactFields), so whether it is held is not shown' : null,
      heldBy: heldKeyBy
        ? { callId: heldKeyBy.callId, state: heldKeyBy.state, outcome: heldKeyBy.outcome, expiresAt: new Date(heldKeyBy.expiresAt).toISOString() }
        : null,
    }
    note('idempotency', badKey, keyText(idempotency))

    const { expiry } = await approvalPolicyFor({
      id: target.name,
      namespace: target.toolNamespace,
      level: target.sideEffects.level,
      resourceNamespace: target.source.kind === 'Tool' ? target.source.namespace : null,
    })
    approval = {
      required: target.requiresApproval,
      source: target.approvalSource,
      level: target.sideEffects.level,
      expirySeconds: expiry.seconds,
      expirySource: expiry.source,
    }
    const byPolicy = policy.approvals.map((r) => `policy ${r.policy} (rule ${r.rule}): ${r.reason}`)
    const held = target.requiresApproval || byPolicy.length > 0
    approval.required = held
    const ruleText = [...(target.requiresApproval ? [approvalRuleText(target)] : []), ...byPolicy].join('; ') || approvalRuleText(target)
    const rule = held
      ? `each call waits for a person's approval (rule: ${ruleText}); a request nobody decides expires after ${duration(expiry.seconds)} (${expiry.source})`
      : `no approval needed (rule: ${ruleText})`
    const skipped = refusals.length > 0 ? 'not reached' : heldKeyBy ? 'not reached: the call repeats the one holding its key' : null
    steps.push({
      step: 'approval',
      outcome: skipped ? 'not-reached' : held ? 'held' : 'passed',
      detail: skipped ? `${skipped}; ${rule}` : rule,
    })
    safety = await safetyOf(winner ?? target, input)
  } else for (const step of STEPS.slice(1)) steps.push({ step, outcome: 'skipped', detail: 'no tool of this name in the effective set' })

  const first = refusals[0] ?? null
  const decision: Decision = first
    ? DECISION_OF_STEP[first.step as Exclude<StepName, 'approval'>](first.refusal)
    : target!.requiresApproval || (policy?.approvals.length ?? 0) > 0
      ? 'approval_required'
      : 'allowed'
  const fixes = await fixesFor({ row, name, decision, winner, candidates, input })
  return {
    ...base,
    through: door ? { door: CALL_TOOL_DOOR, tool: name } : null,
    decision,
    summary: summaryOf(decision, agent, name, first?.refusal ?? null, approval, idempotency),
    identity: { onBehalfOf, chain: identityChain(onBehalfOf, agent, name, binding?.executor ?? null) },
    refusal: first ? { step: first.step, errorCode: first.refusal.errorCode, message: first.refusal.message, rpcCode: first.refusal.rpcCode } : null,
    steps,
    candidates: candidates.map(({ role, why, entry: e }) => ({
      role,
      why,
      provenance: e.provenance,
      tier: e.tier,
      source: e.source,
      inheritedFromUnit: e.inheritedFromUnit,
      state: e.state,
      reason: e.reason,
      level: e.sideEffects.level,
      requiresApproval: e.requiresApproval,
      approvalSource: e.approvalSource,
    })),
    safety,
    executor,
    arguments: { checked: target !== null, violations },
    policies: (policy?.trace ?? []).map(({ policy: p, rule, effect, when, reason, outcome, values, error }) => ({
      policy: p,
      rule,
      effect,
      when,
      reason,
      outcome,
      values,
      ...(error ? { error } : {}),
    })),
    rateLimits: { windows },
    idempotency,
    approval,
    fixes,
  }
}

function doorMisused(base: Pick<Explanation, 'agent' | 'tool' | 'checkedAt' | 'identity'>, message: string): Explanation {
  return {
    ...base,
    through: null,
    decision: 'invalid_arguments',
    summary: message,
    refusal: { step: 'arguments', errorCode: 'call_tool_name', message, rpcCode: RPC.INVALID_PARAMS },
    steps: [{ step: 'arguments', outcome: 'refused', detail: message }],
    candidates: [],
    safety: null,
    executor: null,
    arguments: { checked: false, violations: [{ path: '/name', rule: 'required', message }] },
    policies: [],
    rateLimits: { windows: [] },
    idempotency: { key: null, source: 'none', template: null, scope: null, problem: null, withheld: null, heldBy: null },
    approval: null,
    fixes: [],
  }
}

/** What the Policies that reach the call decided, rule by rule, with the values each compared. */
function policiesText(decision: PolicyDecision): string {
  if (decision.trace.length === 0) return 'no Policy reaches this agent and tool'
  const shown = (values: Record<string, unknown>) => {
    const entries = Object.entries(values)
    return entries.length ? ` with ${entries.map(([k, v]) => `${k} = ${JSON.stringify(v)?.slice(0, 100)}`).join(', ')}` : ''
  }
  return decision.trace
    .map((t) => {
      const result =
        t.outcome === 'error' ? `could not be evaluated (${t.error}); fails closed` : t.outcome === 'matched' ? `matched → ${t.effect}` : 'did not match'
      return `${t.policy} rule ${t.rule} (${t.when})${shown(t.values)}: ${result}`
    })
    .join('; ')
}

/** How the gateway would run it, and the deadline the call gets (lib/gateway/retry.ts, the rule it applies). */
function executorText(executor: Binding['executor'], tool: EffectiveTool): string {
  const retryable = tool.annotations.readOnly || tool.annotations.idempotent
  switch (executor.kind) {
    case 'platform':
      return 'answered by the gateway itself (platform tool)'
    case 'rest':
      return `the gateway calls its REST endpoint; ${deadlineRule(restBudget(executor.endpoint.timeoutMs), retryable)}`
    case 'mcp':
      return `the gateway forwards it to its MCP server (${tool.provenance}); ${deadlineRule(mcpBudget(), retryable)}`
    case 'os':
      return `the gateway runs its command (os tools are turned on); one attempt, killed after ${executor.command.timeoutSeconds ?? 30} s (timeoutSeconds), never retried`
    default:
      return 'the gateway runs it'
  }
}

function keyText(k: Explanation['idempotency']): string {
  if (k.key === null) return 'no idempotency key: the caller sends none and the tool has no idempotencyKeyTemplate'
  const whose = k.scope === 'agent' ? "the caller's key (per agent and tool)" : `rendered from ${k.template} (the tool's, across agents)`
  const held = k.withheld
    ? `; ${k.withheld}`
    : k.heldBy
      ? `; held by call ${k.heldBy.callId} (${k.heldBy.state}) until ${k.heldBy.expiresAt}: a call now gets that call's answer instead of running`
      : '; not held: a call now claims it'
  return `${whose}: ${k.key}${held}`
}

function approvalRuleText(tool: EffectiveTool): string {
  if (tool.approvalSource === 'tool') return "the Tool's own sideEffects.requiresApproval"
  if (tool.approvalSource === 'policy') return `the SideEffectPolicy of level ${tool.sideEffects.level}`
  return `Toolroom's default for level ${tool.sideEffects.level}`
}

function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`
  if (seconds % 3600 === 0) return `${seconds / 3600} h`
  if (seconds % 60 === 0) return `${seconds / 60} min`
  return `${seconds} s`
}

function summaryOf(
  decision: Decision,
  agent: Explanation['agent'],
  name: string,
  refusal: Refusal | null,
  approval: Explanation['approval'],
  key: Explanation['idempotency'],
): string {
  const who = `${agent.namespace}/${agent.name}`
  const repeat = key.heldBy ? ` A call with idempotency key ${key.key} now repeats call ${key.heldBy.callId} and gets its answer instead.` : ''
  switch (decision) {
    case 'allowed':
      return `${who} may call ${name} now: the gateway would run it.${repeat}`
    case 'approval_required':
      return `${who} may call ${name}, but the call waits for a person's approval (expires after ${duration(approval!.expirySeconds)}).${repeat}`
    default:
      return `The gateway would refuse it: ${refusal!.message}`
  }
}

async function safetyOf(tool: EffectiveTool, input: Awaited<ReturnType<typeof loadResolverInput>>): Promise<Explanation['safety']> {
  const spec = tool.source.kind === 'Tool' ? await toolSpecOf(tool.source.namespace ?? 'default', tool.source.name) : null
  return {
    allowedAgents: spec?.safety?.allowedAgents ?? null,
    deniedNamespaces: spec?.safety?.deniedNamespaces ?? null,
    toggle: tool.tier === 'image' ? null : nearestToggle(tool.name, input),
  }
}

async function toolSpecOf(namespace: string, name: string): Promise<ToolSpec | null> {
  const row = await prisma.tool.findUnique({ where: { namespace_name: { namespace, name } }, select: { spec: true } })
  return (row?.spec as ToolSpec | undefined) ?? null
}

async function toolResource(namespace: string, name: string): Promise<ResourceView | null> {
  const row = (await prisma.tool.findUnique({ where: { namespace_name: { namespace, name } } })) as Row | null
  return row ? toResourceView('Tool', row) : null
}

/** The change that would let the agent call the name, as Apply drafts (fix-drafts.ts); none when nothing in a manifest stands in the way. */
async function fixesFor(ctx: {
  row: Row
  name: string
  decision: Decision
  winner: EffectiveTool | null
  candidates: CandidateTrace[]
  input: Awaited<ReturnType<typeof loadResolverInput>>
}): Promise<FixDraft[]> {
  const { row, name, winner, input } = ctx
  if (ctx.decision !== 'denied' && ctx.decision !== 'unknown_tool') return []
  const agentView = toResourceView('Agent', row)
  const subject = { kind: 'Agent' as const, namespace: row.namespace, name: row.name }
  if (winner?.state === 'disabled') return [enableToggleDraft(agentView, name)]
  if (winner?.state === 'denied' && winner.source.kind === 'Tool') {
    const tool = await toolResource(winner.source.namespace ?? 'default', winner.source.name)
    return tool ? [safetyFix(tool, subject)].filter((f): f is FixDraft => f !== null) : []
  }
  if (winner) return []
  // Nothing of the name competes (unknown, or only squatters of a reserved namespace): what could offer it.
  const fixes: FixDraft[] = []
  const slug = reservedNamespaceOf(name, input.connectorSlugs)
  if (slug && slug !== 'toolroom') {
    const offered = await registryReader().connectorTools(slug)
    if (offered?.some((t) => t.name === name)) fixes.push(bindConnectorDraft(agentView, slug))
  }
  const tools = await prisma.tool.findMany({ where: { name }, select: { namespace: true, name: true, spec: true }, orderBy: { namespace: 'asc' }, take: 20 })
  // Tools the agent could be granted without changing them (their safety lets it in); its own namespace first.
  const grantable = tools
    .filter((t) => {
      const safety = (t.spec as ToolSpec).safety
      return !safety?.deniedNamespaces?.includes(row.namespace) && agentAllowed(safety?.allowedAgents, t.namespace, row)
    })
    .sort((a, b) => Number(b.namespace === row.namespace) - Number(a.namespace === row.namespace))
  for (const t of grantable.slice(0, 3)) fixes.push(grantDraft(agentView, t))
  return fixes
}

/**
 * The safety rules of the Tool standing in the way, fixed together in one draft (fixing one alone
 * would only reveal the next): each found by the resolver's own rule (safetyDenialOf).
 */
function safetyFix(tool: ResourceView, subject: { kind: 'Agent'; namespace: string; name: string }): FixDraft | null {
  let spec = tool.spec as ToolSpec
  const changes: string[] = []
  const rules = new Set<string>()
  for (let i = 0; i < 2; i++) {
    const denial = safetyDenialOf(
      {
        name: tool.metadata.name,
        namespace: tool.metadata.namespace,
        allowedAgents: spec.safety?.allowedAgents,
        deniedNamespaces: spec.safety?.deniedNamespaces,
      },
      subject,
    )
    if (!denial || rules.has(denial.rule)) break
    rules.add(denial.rule)
    if (denial.rule === 'deniedNamespaces') {
      spec = withoutDeniedNamespace(spec, subject.namespace) as ToolSpec
      changes.push(`remove ${subject.namespace} from safety.deniedNamespaces`)
    } else {
      spec = withAgentAllowed(spec, tool.metadata.namespace, subject) as ToolSpec
      changes.push(`add ${allowedAgentEntry(tool.metadata.namespace, subject)} to safety.allowedAgents`)
    }
  }
  if (changes.length === 0) return null
  const action = rules.has('allowedAgents') ? 'allowedAgents' : 'deniedNamespaces'
  return draftOf(tool, spec, action, `${changes.join(' and ')} of Tool ${tool.metadata.namespace}/${tool.metadata.name}`)
}
