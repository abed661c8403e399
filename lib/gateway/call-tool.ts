// The gateway pipeline, the same for MCP `tools/call`, the REST call endpoint and toolroom.call_tool:
// effective set → safety → arguments → rate limits → idempotency → approval → execute (with retries
// where a repeat is harmless) → record. Every call ends in exactly one ToolCall row, written with
// `redactFields` masked, secrets scrubbed, and args/results only where `observability` allows.
import 'server-only'
import { randomUUID } from 'node:crypto'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { onBehalfOfColumns } from '@/lib/identity/person'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { observeCall, observeUpstreamAttempt } from '@/lib/observability/metrics'
import { currentTraceparent, type SpanHandle, withSpan } from '@/lib/observability/tracing'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { toolNamespaceOf } from '@/lib/tools/naming'
import type { ApprovedCallOutcome } from '@/lib/approvals/execute-approved-call'
import { heldPerson, heldPersonRefusal } from '@/lib/approvals/held-person'
import { announceApprovalRequest, requestApproval } from '@/lib/approvals/request-approval'
import { registryReader } from '@/lib/effective-tools/registry-reader'
import {
  argumentsRefusal,
  unwrapCallTool,
  callKeyOf,
  executorRefusal,
  keyRefusal,
  keyScopeOf,
  policyRefusal,
  rateLimitRefusal,
  type Refusal,
  unavailableRefusal,
  unknownToolRefusal,
} from './call-checks'
import { approvalRequired, currentApprovalAnswer, defaultApprovalWaitMs, waitForApprovalAnswer } from './approval-answers'
import { type AgentTools, agentTools } from './agent-tools'
import { executeMcp } from './executors/mcp'
import { executeOs, osToolsEnabled } from './executors/os'
import { executeRest, restAuthHeaders } from './executors/rest'
import { callerKeyScope, claimKey, completeKey, type KeyScope, templateKeyScope } from './idempotency'
import { storableKey } from './idempotency-key'
import { runPlatformTool } from './platform-calls'
import { agentRateLimit, rateWindows, sweepExpiredWindows, takeRate, withPolicyWindows } from './rate-limit'
import { type PolicyDecision, policyPersonOf, type RuleRef } from '@/lib/policy/evaluate-policies'
import { decidePolicies } from '@/lib/policy/policy-set'
import { InjectedSecrets } from './injected-secrets'
import { type CallRecord, recordCall, updateCallOutcome } from './record-call'
import { scrubText, scrubTree } from '@/lib/secrets/scrub-values'
import { parseRedactFields, redactTree, upstreamExcerpt } from './redact'
import { mcpBudget, restBudget, withRetries } from './retry'
import { type Binding, bindingFor } from './tool-binding'
import { executionFailure, RPC, ToolFailure, TransientError } from './tool-errors'

export interface CallContext {
  agent: AgentIdentity
  channel: 'mcp' | 'rest'
  requestId?: string
  signal?: AbortSignal
  /** How long a call that needs approval waits for the decision and the result (0: answer approval_required at once). */
  waitForApprovalMs?: number
  /** Where progress goes while the call runs (an upstream's own reports, or the wait for approval); absent when the caller asked for none. */
  progress?: (report: ProgressReport) => void
  /** The time Policies read as `now` (the clock when absent). */
  now?: Date
}

/** One progress report, as MCP's `notifications/progress` carries it. */
export interface ProgressReport {
  progress: number
  total?: number
  message?: string
}

/** A call's answer: an MCP tool result, or the JSON-RPC error to send. */
export type CallAnswer =
  { callId: string; result: CallToolResult } | { callId: string | null; error: { code: number; message: string; data: Record<string, unknown> } }

/** What a repeat of an idempotent call replays: the first answer, whichever it was. */
type Replayable = { result: CallToolResult } | { error: { code: number; message: string; data: Record<string, unknown> } }

export function callTool(ctx: CallContext, name: string, rawArgs: unknown, callerKey?: string): Promise<CallAnswer> {
  return withSpan('toolroom.gateway.call', { attributes: { 'toolroom.channel': ctx.channel } }, async (span) => {
    sweepExpiredWindows()
    const tools = await step('resolve', () => agentTools(ctx.agent.agentId))
    if (!tools) return { callId: null, error: { code: RPC.INVALID_REQUEST, message: 'the calling agent no longer exists', data: {} } }
    const entry = tools.enabled.get(name)
    const door = unwrapCallTool(entry, rawArgs, callerKey)
    if (door && 'error' in door) return { callId: null, error: { code: RPC.INVALID_PARAMS, message: door.error, data: {} } }
    if (door) return callTool(ctx, door.name, door.args, door.callerKey)
    const run = new PipelineRun(ctx, tools, name, rawArgs, callerKey)
    // Only names the registry knows go on the span as the tool; the call id ties it to the call log.
    span.setAttributes({
      'toolroom.tool': entry?.name ?? '(unknown)',
      'toolroom.agent': `${tools.agent.namespace}/${tools.agent.name}`,
      'toolroom.call_id': run.callId,
    })
    // No log context here (lib/observability/logger.ts, withLogContext): it would slow every call.
    const answer = await run.run()
    span.setAttributes({ 'toolroom.outcome': run.outcome ?? 'unknown' })
    if ('error' in answer && answer.error.code === RPC.INTERNAL_ERROR) span.fail(answer.error.message)
    return answer
  })
}

/** A step of the pipeline, traced as a child of the call (a plain call of `fn` when tracing is off). */
function step<T>(name: string, fn: (span: SpanHandle) => T): T {
  return withSpan(`toolroom.gateway.${name}`, {}, fn)
}

class PipelineRun {
  readonly callId: string
  /** The outcome recorded for this call (for its span). */
  outcome: string | null = null
  /** Time spent waiting for upstreams, all attempts: the metrics report the gateway's own share apart. */
  private upstreamMs = 0
  private readonly started = new Date()
  private readonly t0 = performance.now()
  /** Values the call record must not hold: the injected secrets, and what `redactFields` masks. */
  private readonly sensitive = new Set<string>()
  /** The secrets this call sends upstream: nothing the upstream answers reaches anyone before they are scrubbed out. */
  private readonly secrets = new InjectedSecrets()
  private attempts = 0
  private key: string | null = null
  private keyScope: KeyScope | null = null
  private binding: Binding | null = null

  constructor(
    private readonly ctx: CallContext,
    private readonly tools: AgentTools,
    private readonly name: string,
    private readonly rawArgs: unknown,
    private readonly callerKey: string | undefined,
    callId: string = randomUUID(),
  ) {
    this.callId = callId
  }

  async run(): Promise<CallAnswer> {
    const entry = this.tools.enabled.get(this.name)
    // 1-2. The effective set and safety: the resolver has already removed what safety denies, with the reason.
    if (!entry) return this.refuseUnavailable()

    // Tools the gateway cannot run (image and function tools run inside the agent) are refused whatever their arguments.
    const binding = (this.binding = await step('bind', () => bindingFor(entry, registryReader())))
    const notRun = executorRefusal(binding.executor, osToolsEnabled())
    if (notRun) return this.refuse(entry, notRun)

    // 3. Arguments.
    const args = (this.rawArgs ?? {}) as Record<string, unknown>
    const invalid = step('validate', () => argumentsRefusal(entry, this.rawArgs))
    if (invalid) return this.refuse(entry, invalid)

    // Policies (docs/design/policy.md): they only tighten what the steps below do.
    const policy = await step('policy', () => this.decidePolicies(entry, args))
    if (policy.redactFields.length > 0) this.binding = { ...binding, redactFields: [...binding.redactFields, ...policy.redactFields] }
    if (policy.deny) return this.refuse(entry, policyRefusal(entry.name, policy.deny))

    // 4. Rate limits, per tool and per agent (and a Policy's lower limits), counted in the database.
    const now = Date.now()
    const windows = withPolicyWindows(
      rateWindows(entry.name, entry.rateLimit, this.tools.agent.id, agentRateLimit(this.tools.agent.spec), now),
      policy.limits,
      this.tools.agent.id,
      now,
    )
    const refusal = await step('rate_limit', () => takeRate(windows))
    if (refusal) return this.refuse(entry, rateLimitRefusal(refusal))

    // 5. Idempotency.
    const key = callKeyOf(this.callerKey, binding.idempotencyKeyTemplate, args)
    const scope = keyScopeOf(this.callerKey, this.tools.agent.id, entry)
    if (key !== null) {
      const badKey = keyRefusal(key)
      if (badKey) return this.refuse(entry, badKey)
      this.key = key
      this.keyScope = scope
      const claim = await step('idempotency', () => claimKey(scope, key, this.callId))
      if (!claim.owner) return this.replay(entry, args, claim.callId, claim.stored)
    }

    // 6. Approval: held for a person; a worker runs it once approved (lib/approvals).
    const bound = this.binding
    if (entry.requiresApproval || policy.approvals.length > 0) return step('approval', () => this.holdForApproval(entry, bound, args, policy.approvals))

    // 7. Execute.
    try {
      const result = await step('execute', () => this.execute(entry, bound, args))
      const outcome = result.isError ? 'failed' : 'succeeded'
      await this.finish(entry, args, outcome, { result }, result.isError ? { code: 'tool_error', message: firstText(result), reply: allText(result) } : null)
      return { callId: this.callId, result }
    } catch (e) {
      const failure = executionFailure(e, this.attempts)
      const data = scrubTree(
        { outcome: 'failed', callId: this.callId, attempts: this.attempts, ...failure.data, errorCode: failure.errorCode },
        this.sensitive,
      ) as Record<string, unknown>
      const message = scrubText(failure.message, this.sensitive)
      const error = { code: failure.rpc, message, data }
      await this.finish(entry, args, 'failed', { error }, { code: failure.errorCode, message, reply: upstreamReplyOf(e) })
      return { callId: this.callId, error }
    }
  }

  private decidePolicies(entry: EffectiveTool, args: Record<string, unknown>): Promise<PolicyDecision> {
    const { agent } = this.tools
    return decidePolicies(
      { namespace: agent.namespace, name: agent.name, labels: agent.labels, units: agent.units },
      entry,
      args,
      policyPersonOf(this.ctx.agent.person),
      this.ctx.now,
    )
  }

  private async holdForApproval(entry: EffectiveTool, binding: Binding, args: Record<string, unknown>, policyRules: RuleRef[]): Promise<CallAnswer> {
    const result = approvalRequired(this.callId, entry)
    // The agent learns why it waits: each Policy rule that asked for the approval, with its reason.
    if (policyRules.length > 0) result.structuredContent = { ...result.structuredContent, policyRules }
    await this.finish(entry, args, 'pending_approval', { result }, null)
    const approval = await requestApproval({
      callId: this.callId,
      agent: { id: this.tools.agent.id, namespace: this.tools.agent.namespace, name: this.tools.agent.name, unit: this.tools.agent.unit },
      tool: {
        id: entry.name,
        namespace: entry.toolNamespace,
        level: entry.sideEffects.level,
        resourceNamespace: entry.source.kind === 'Tool' ? entry.source.namespace : null,
        description: entry.description,
        inputSchema: entry.inputSchema,
      },
      approvalSource: entry.requiresApproval ? entry.approvalSource : 'policy_rule',
      policyRules,
      args,
      // Approvers always see the arguments, with redactFields masked, whatever logArgs says for the call log.
      redactedArgs: this.loggedArgs(binding, args),
      idempotencyKey: this.key === null ? null : storableKey(this.key, this.sensitive),
      rawIdempotencyKey: this.key,
      rateLimit: { tool: entry.rateLimit, agent: agentRateLimit(this.tools.agent.spec) },
      person: this.ctx.agent.person,
      // The execution, later and elsewhere, links its trace to this call's.
      traceparent: currentTraceparent(),
    })
    await announceApprovalRequest(approval)
    const waitMs = this.ctx.waitForApprovalMs ?? defaultApprovalWaitMs()
    if (waitMs > 0) {
      const settled = await waitForApprovalAnswer(this.callId, entry, waitMs, this.ctx.signal, this.ctx.progress)
      if (settled) return { callId: this.callId, ...settled }
    }
    return { callId: this.callId, result }
  }

  /** Runs a call a person approved (a worker does, once): the pending record is closed with the outcome. */
  async runApproved(binding: Binding, entry: EffectiveTool, args: Record<string, unknown>): Promise<ApprovedCallOutcome> {
    this.binding = binding
    let answer: Replayable
    let outcome: 'succeeded' | 'failed'
    let error: { code: string; message: string } | null = null
    let reply: string | undefined
    try {
      const result = await this.execute(entry, binding, args)
      answer = { result }
      outcome = result.isError ? 'failed' : 'succeeded'
      if (result.isError) {
        error = { code: 'tool_error', message: firstText(result) }
        reply = allText(result)
      }
    } catch (e) {
      reply = upstreamReplyOf(e)
      const failure = executionFailure(e, this.attempts)
      const message = scrubText(failure.message, this.sensitive)
      answer = {
        error: { code: failure.rpc, message, data: { outcome: 'failed', callId: this.callId, attempts: this.attempts, errorCode: failure.errorCode } },
      }
      outcome = 'failed'
      error = { code: failure.errorCode, message }
    }
    this.collectMaskedArgs(binding, args)
    await updateCallOutcome(this.callId, {
      outcome,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? null,
      upstreamExcerpt: upstreamExcerpt(reply, this.sensitive),
      latencyMs: Math.round(performance.now() - this.t0),
      attempts: this.attempts,
      result: 'result' in answer && binding.logResult ? this.loggedResult(binding, answer.result) : null,
    })
    // The approval kept the key, not whose it was: the row this call claimed is in one of the two scopes.
    if (this.callerKey)
      await completeKey(
        [callerKeyScope(this.tools.agent.id, entry.name), templateKeyScope(toolStatKey(entry.source, entry.name))],
        this.callerKey,
        this.callId,
        outcome,
        answer,
      )
    return { ok: outcome === 'succeeded', ...(error ? { error: error.message } : {}), answer }
  }

  /**
   * The only door through which what an upstream answered enters the pipeline: the result, or the
   * failure, with the secrets this call injected scrubbed out (lib/gateway/injected-secrets.ts).
   */
  private async execute(entry: EffectiveTool, binding: Binding, args: Record<string, unknown>): Promise<CallToolResult> {
    try {
      return this.secrets.scrub(await this.executeUnscrubbed(entry, binding, args))
    } catch (e) {
      throw this.secrets.scrubError(e)
    } finally {
      for (const value of this.secrets.noted) this.sensitive.add(value)
    }
  }

  private async executeUnscrubbed(entry: EffectiveTool, binding: Binding, args: Record<string, unknown>): Promise<CallToolResult> {
    const retryable = entry.annotations.readOnly || entry.annotations.idempotent
    const exec = binding.executor
    switch (exec.kind) {
      case 'platform':
        this.attempts = 1
        return runPlatformTool(entry.name, args, this.tools)
      case 'rest': {
        const headers = await restAuthHeaders(exec.endpoint, exec.namespace, this.secrets, this.ctx.agent.person)
        return withRetries(
          retryable,
          restBudget(exec.endpoint.timeoutMs),
          (n, attemptMs) => this.upstream('rest', n, () => executeRest(exec.endpoint, args, headers, this.ctx.signal, attemptMs)),
          (n) => (this.attempts = n),
          { signal: this.ctx.signal },
        )
      }
      case 'mcp': {
        const progress = this.ctx.progress
        const scrubbedProgress = progress && ((report: ProgressReport) => progress(this.secrets.scrub(report)))
        return withRetries(
          retryable,
          mcpBudget(),
          (n, attemptMs) =>
            this.upstream('mcp', n, () =>
              executeMcp(
                exec.target,
                exec.upstreamName,
                args,
                this.secrets,
                this.ctx.signal,
                scrubbedProgress,
                entry.inputSchema,
                attemptMs,
                this.ctx.agent.person,
              ),
            ),
          (n) => (this.attempts = n),
          { signal: this.ctx.signal },
        )
      }
      case 'os':
        this.attempts = 1
        return executeOs(exec.command, args, this.ctx.signal)
      default:
        throw new Error('no executor')
    }
  }

  /** One attempt at the upstream: timed for the metrics, and a client span whose context the request carries. */
  private upstream<T extends CallToolResult>(executor: 'rest' | 'mcp', attempt: number, run: () => Promise<T>): Promise<T> {
    return withSpan(
      'toolroom.gateway.upstream',
      { kind: 'client', attributes: { 'toolroom.executor': executor, 'toolroom.attempt': attempt } },
      async (span) => {
        const t0 = performance.now()
        let ok = false
        try {
          const result = await run()
          ok = !result.isError
          return result
        } catch (e) {
          // The span leaves the process too (an OpenTelemetry exporter).
          span.fail(this.secrets.scrubError(e))
          throw e
        } finally {
          const ms = performance.now() - t0
          this.upstreamMs += ms
          observeUpstreamAttempt(executor, ms / 1000, ok)
        }
      },
    )
  }

  /** Not in the enabled set: unknown to this agent, or present but disabled or denied (a protocol error, -32602, with the reason in data). */
  private async refuseUnavailable(): Promise<CallAnswer> {
    const known = this.tools.unavailable.get(this.name)
    if (!known) {
      const unknown = unknownToolRefusal(this.name)
      const error = { code: unknown.rpcCode, message: unknown.message, data: { outcome: unknown.outcome, callId: this.callId, ...unknown.data } }
      await this.write(this.record(null, unknown.outcome, { code: unknown.errorCode, message: unknown.message }, null, null))
      return { callId: this.callId, error }
    }
    return this.refuse(known, unavailableRefusal(known))
  }

  private refuse(entry: EffectiveTool, refusal: Refusal): Promise<CallAnswer> {
    return this.fail(entry, refusal.outcome, refusal.errorCode, refusal.message, refusal.rpcCode, refusal.data, refusal.logArgs)
  }

  private async fail(
    entry: EffectiveTool,
    outcome: string,
    errorCode: string,
    message: string,
    code: number,
    data: Record<string, unknown>,
    logArgs = true,
  ): Promise<CallAnswer> {
    const error = { code, message, data: { outcome, callId: this.callId, ...data } }
    const binding = this.binding ?? (await bindingFor(entry, registryReader()).catch(() => null))
    const args = logArgs && binding?.logArgs ? this.loggedArgs(binding, (this.rawArgs ?? {}) as Record<string, unknown>) : null
    await this.write(this.record(entry, outcome, { code: errorCode, message: scrubText(message, this.sensitive) }, args, null))
    return { callId: this.callId, error }
  }

  private async replay(
    entry: EffectiveTool,
    args: Record<string, unknown>,
    firstCallId: string,
    stored: { outcome: string; answer: unknown } | null,
  ): Promise<CallAnswer> {
    if (!stored) {
      const message = `a call with the same idempotency key (${firstCallId}) is still in progress; repeat the call later for its result`
      return this.fail(entry, 'deduplicated', 'in_progress', message, RPC.IN_PROGRESS, { firstCallId })
    }
    // The first call waits for approval: the repeat gets where it stands now, its result once it ran.
    const answer = (stored.outcome === 'pending_approval' ? await currentApprovalAnswer(firstCallId, entry) : null) ?? (stored.answer as Replayable)
    const binding = this.binding!
    const result = 'result' in answer ? answer.result : null
    await this.write(
      this.record(
        entry,
        'deduplicated',
        null,
        binding.logArgs ? this.loggedArgs(binding, args) : null,
        result && binding.logResult ? this.loggedResult(binding, result) : null,
        firstCallId,
      ),
    )
    if ('result' in answer) return { callId: firstCallId, result: answer.result }
    return { callId: firstCallId, error: { ...answer.error, data: { ...answer.error.data, deduplicated: true } } }
  }

  private async finish(
    entry: EffectiveTool,
    args: Record<string, unknown>,
    outcome: string,
    answer: Replayable,
    error: { code: string; message: string; reply?: string } | null,
  ) {
    const binding = this.binding!
    const loggedArgs = binding.logArgs ? this.loggedArgs(binding, args) : null
    const loggedResult = 'result' in answer && binding.logResult ? this.loggedResult(binding, answer.result) : null
    if (error?.reply) this.collectMaskedArgs(binding, args)
    const record = this.record(entry, outcome, error ? { code: error.code, message: scrubText(error.message, this.sensitive) } : null, loggedArgs, loggedResult)
    // Scrubbed last, once every value that must not be stored is known (injected secrets, masked fields).
    record.upstreamExcerpt = upstreamExcerpt(error?.reply, this.sensitive)
    await Promise.all([this.write(record), this.key !== null && this.keyScope ? completeKey([this.keyScope], this.key, this.callId, outcome, answer) : null])
  }

  /**
   * Notes the values `redactFields` masks in the arguments as sensitive, whether or not the arguments
   * are logged: an upstream that echoes one in its error must not get it stored through the excerpt.
   */
  private collectMaskedArgs(binding: Binding, args: Record<string, unknown>) {
    redactTree('args', args, parseRedactFields(binding.redactFields), this.sensitive)
  }

  private loggedArgs(binding: Binding, args: Record<string, unknown>): unknown {
    return scrubTree(redactTree('args', args, parseRedactFields(binding.redactFields), this.sensitive), this.sensitive)
  }

  private loggedResult(binding: Binding, result: CallToolResult): unknown {
    const redaction = parseRedactFields(binding.redactFields)
    // Redact the structured part first, so the values it masks are also scrubbed from the text content.
    const structuredContent = result.structuredContent !== undefined ? redactTree('result', result.structuredContent, redaction, this.sensitive) : undefined
    const kept = { ...(result.isError ? { isError: true } : {}), ...(structuredContent !== undefined ? { structuredContent } : { content: result.content }) }
    return scrubTree(kept, this.sensitive)
  }

  private record(
    entry: EffectiveTool | null,
    outcome: string,
    error: { code: string; message: string } | null,
    args: unknown,
    result: unknown,
    dedupOf?: string,
  ): CallRecord {
    const { agent } = this.tools
    const toolId = entry?.name ?? this.name.slice(0, 200)
    return {
      id: this.callId,
      startedAt: this.started,
      finishedAt: outcome === 'pending_approval' ? null : new Date(),
      agentId: agent.id,
      agentNamespace: agent.namespace,
      agentName: agent.name,
      unit: agent.unit,
      toolId,
      toolNamespace: entry?.toolNamespace ?? safeNamespace(toolId),
      toolKey: entry ? toolStatKey(entry.source, entry.name) : null,
      provenance: entry?.provenance ?? 'unknown',
      level: entry?.sideEffects.level ?? null,
      channel: this.ctx.channel,
      outcome,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? (dedupOf ? `repeat of call ${dedupOf}` : null),
      latencyMs: Math.round(performance.now() - this.t0),
      attempts: this.attempts,
      idempotencyKey: this.key === null ? null : storableKey(this.key, this.sensitive),
      args: args ?? null,
      result: result ?? null,
      requestId: this.ctx.requestId ?? null,
      ...onBehalfOfColumns(this.ctx.agent.person),
    }
  }

  private write(record: CallRecord) {
    this.outcome = record.outcome
    observeCall({ ...record, known: record.toolKey !== null }, this.upstreamMs)
    return step('record', (span) => {
      span.setAttributes({ 'db.system': 'postgresql', 'db.operation': 'INSERT', 'db.collection.name': 'ToolCall' })
      return recordCall(record)
    })
  }
}

/**
 * The worker's side of an approved call: the agent's tool as it is now (a tool removed or denied
 * since the request does not run), executed through the same executors, retries and redaction.
 */
export async function runApprovedCall(
  approval: Parameters<typeof heldPerson>[0] & { callId: string; agentId: string; toolId: string },
  args: Record<string, unknown>,
  idempotencyKey: string | null,
): Promise<ApprovedCallOutcome> {
  const notRun = async (errorCode: string, message: string) => {
    await updateCallOutcome(approval.callId, { outcome: 'failed', errorCode, errorMessage: message, latencyMs: null, attempts: 0, result: null })
    return {
      ok: false,
      error: message,
      answer: { error: { code: RPC.INVALID_PARAMS, message, data: { outcome: 'failed', callId: approval.callId, errorCode } } },
    }
  }
  const tools = await agentTools(approval.agentId)
  const entry = tools?.enabled.get(approval.toolId)
  if (!tools || !entry) return notRun('unavailable', `${approval.toolId} is no longer available to this agent, so the approved call did not run`)
  // The call is made for its person, or not at all (docs/design/approvals.md#on-whose-behalf).
  const lapsed = await heldPersonRefusal(approval)
  if (lapsed) return notRun(lapsed.code, lapsed.message)
  const ctx: CallContext = {
    agent: {
      kind: 'agent',
      agentId: tools.agent.id,
      name: tools.agent.name,
      namespace: tools.agent.namespace,
      credentialId: '',
      person: heldPerson(approval),
    },
    channel: 'mcp',
  }
  const run = new PipelineRun(ctx, tools, entry.name, args, idempotencyKey ?? undefined, approval.callId)
  const binding = await bindingFor(entry, registryReader())
  // The Policies as they are now: one that denies the call since it was approved still stops it
  // (an approval is not an exemption), and what they redact now is masked in the outcome.
  const policy = await decidePolicies(
    { namespace: tools.agent.namespace, name: tools.agent.name, labels: tools.agent.labels, units: tools.agent.units },
    entry,
    args,
    policyPersonOf(ctx.agent.person),
  )
  if (policy.deny) {
    const refusal = policyRefusal(entry.name, policy.deny)
    await updateCallOutcome(approval.callId, {
      outcome: 'denied',
      errorCode: refusal.errorCode,
      errorMessage: refusal.message,
      latencyMs: null,
      attempts: 0,
      result: null,
    })
    return {
      ok: false,
      error: refusal.message,
      answer: { error: { code: refusal.rpcCode, message: refusal.message, data: { outcome: 'denied', callId: approval.callId, ...refusal.data } } },
    }
  }
  return run.runApproved({ ...binding, redactFields: [...binding.redactFields, ...policy.redactFields] }, entry, args)
}

/** Whether running the call a second time is harmless: the tool is read-only or idempotent. */
export async function isSafeToRepeat(approval: { agentId: string; toolId: string }): Promise<boolean> {
  const entry = (await agentTools(approval.agentId))?.enabled.get(approval.toolId)
  return Boolean(entry && (entry.annotations.readOnly || entry.annotations.idempotent))
}

function safeNamespace(id: string): string {
  try {
    return toolNamespaceOf(id)
  } catch {
    return id.split('.')[0] ?? ''
  }
}

/** The raw reply an executor's failure carries, if the upstream answered at all. */
function upstreamReplyOf(e: unknown): string | undefined {
  return e instanceof ToolFailure || e instanceof TransientError ? e.upstreamReply : undefined
}

/** Every text part of a tool result that reported an error, as the upstream wrote them. */
function allText(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text' && typeof (c as { text?: unknown }).text === 'string')
    .map((c) => c.text)
    .join('\n')
}

function firstText(result: CallToolResult): string {
  const first = result.content?.find((c) => c.type === 'text') as { text?: string } | undefined
  return (first?.text ?? 'the tool reported an error').slice(0, 2000)
}
