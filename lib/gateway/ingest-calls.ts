// Calls the agent ran itself (image-tier and function tools), reported in batches with its
// credential. All or nothing: the body is validated as a whole (an invalid record refuses the batch,
// its index named in the error) and written in one statement. A record may carry its own `id` (a
// UUID): re-sending a batch after a lost answer then records nothing twice. The tool's observability
// rules apply as for gateway calls: args and results only where allowed, redactFields masked.
import 'server-only'
import { randomUUID } from 'node:crypto'
import type { AgentIdentity } from '@/lib/auth/authenticate-agent'
import { AppError, type FieldError } from '@/lib/errors/app-error'
import { RETENTION_HOURS } from '@/lib/stats/stats-window'
import { z } from '@/lib/http/zod'
import { canonicalToolId } from '@/lib/manifests/specs/common'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { toolNamespaceOf } from '@/lib/tools/naming'
import { registryReader } from '@/lib/effective-tools/registry-reader'
import { agentTools } from './agent-tools'
import { type CallRecord, insertCalls } from './record-call'
import { scrubTree } from '@/lib/secrets/scrub-values'
import { parseRedactFields, redactTree } from './redact'
import { bindingFor } from './tool-binding'
import { decidePolicies } from '@/lib/policy/policy-set'
import { violationOf } from '@/lib/policy/evaluate-policies'

export const INGEST_MAX_RECORDS = 1000
export const INGEST_MAX_BODY_BYTES = 4 * 1024 * 1024
const INGEST_OUTCOMES = ['succeeded', 'failed', 'denied', 'invalid_arguments', 'rate_limited', 'deduplicated'] as const

const ingestRecord = z.strictObject({
  id: z.string().uuid().optional().openapi({ description: 'Your id for the call, so a re-sent batch is not recorded twice' }),
  toolId: canonicalToolId,
  outcome: z.enum(INGEST_OUTCOMES),
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }).optional(),
  latencyMs: z.number().int().min(0).max(86_400_000).optional(),
  attempts: z.number().int().min(0).max(100).default(1),
  errorCode: z.string().max(100).optional(),
  errorMessage: z.string().max(4000).optional(),
  idempotencyKey: z.string().max(512).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
  requestId: z.string().max(128).optional(),
})

export const ingestBody = z.strictObject({ calls: z.array(ingestRecord).min(1).max(INGEST_MAX_RECORDS) }).openapi('CallIngest')
type IngestRecord = z.infer<typeof ingestRecord>

/** Clocks disagree a little: a start up to this far ahead of ours is still believed. */
export const INGEST_CLOCK_SKEW_MS = 5 * 60_000

/**
 * An agent records only what happened to its own tools (its effective set: enabled, or listed as
 * disabled or denied), within the window the statistics keep (older calls would never be counted,
 * and year-0001 dates only distort lists), and not in the future. Pure.
 */
export function ingestProblems(
  calls: Array<Pick<IngestRecord, 'toolId' | 'startedAt' | 'finishedAt'>>,
  isOwnTool: (toolId: string) => boolean,
  now: number,
): FieldError[] {
  const oldest = now - RETENTION_HOURS * 3_600_000
  return calls.flatMap((c, i) => {
    const problems: FieldError[] = []
    const started = Date.parse(c.startedAt)
    if (!isOwnTool(c.toolId))
      problems.push({ field: `calls[${i}].toolId`, rule: 'effective-set', message: `${c.toolId} is not one of this agent's tools (its effective set)` })
    if (started > now + INGEST_CLOCK_SKEW_MS) problems.push({ field: `calls[${i}].startedAt`, rule: 'not-future', message: 'is in the future' })
    else if (started < oldest)
      problems.push({
        field: `calls[${i}].startedAt`,
        rule: 'retention-window',
        message: `is older than the ${RETENTION_HOURS / 24}-day window calls are kept for`,
      })
    if (c.finishedAt !== undefined) {
      const finished = Date.parse(c.finishedAt)
      if (finished < started) problems.push({ field: `calls[${i}].finishedAt`, rule: 'after-start', message: 'is before startedAt' })
      else if (finished > now + INGEST_CLOCK_SKEW_MS) problems.push({ field: `calls[${i}].finishedAt`, rule: 'not-future', message: 'is in the future' })
    }
    return problems
  })
}

export async function ingestCalls(agent: AgentIdentity, calls: IngestRecord[], requestId: string): Promise<{ accepted: number; duplicates: number }> {
  const tools = await agentTools(agent.agentId)
  if (!tools) throw new AppError('UNAUTHORIZED', 'the calling agent no longer exists')
  const errors = ingestProblems(calls, (toolId) => tools.enabled.has(toolId) || tools.unavailable.has(toolId), Date.now())
  if (errors.length) throw new AppError('VALIDATION_FAILED', `invalid calls: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors)

  const records: CallRecord[] = []
  for (const c of calls) {
    const entry = tools.enabled.get(c.toolId) ?? tools.unavailable.get(c.toolId) ?? null
    const bound = entry ? await bindingFor(entry, registryReader()) : { logArgs: true, logResult: true, redactFields: [] as string[] }
    // The agent ran the call itself, so a Policy cannot stop it: a call a Policy would have refused
    // or held for approval is recorded as a violation of it (docs/design/policy.md#ingest).
    const policy =
      entry && (c.outcome === 'succeeded' || c.outcome === 'failed')
        ? await decidePolicies(
            { namespace: tools.agent.namespace, name: tools.agent.name, labels: tools.agent.labels, units: tools.agent.units },
            entry,
            c.args ?? {},
            null,
            new Date(c.startedAt),
          )
        : null
    const violation = policy ? violationOf(c.toolId, policy) : null
    const binding = policy?.redactFields.length ? { ...bound, redactFields: [...bound.redactFields, ...policy.redactFields] } : bound
    const redaction = parseRedactFields(binding.redactFields)
    const sensitive = new Set<string>()
    const args = c.args !== undefined && binding.logArgs ? redactTree('args', c.args, redaction, sensitive) : null
    const result = c.result !== undefined && binding.logResult ? redactTree('result', c.result, redaction, sensitive) : null
    records.push({
      id: c.id ?? randomUUID(),
      startedAt: new Date(c.startedAt),
      finishedAt: c.finishedAt ? new Date(c.finishedAt) : null,
      agentId: tools.agent.id,
      agentNamespace: tools.agent.namespace,
      agentName: tools.agent.name,
      unit: tools.agent.unit,
      toolId: c.toolId,
      toolNamespace: toolNamespaceOf(c.toolId),
      toolKey: entry ? toolStatKey(entry.source, entry.name) : null,
      provenance: entry?.provenance ?? 'unknown',
      level: entry?.sideEffects.level ?? null,
      channel: 'ingest',
      outcome: c.outcome,
      errorCode: violation ? 'policy_violation' : (c.errorCode ?? null),
      errorMessage: violation ? [violation, c.errorMessage].filter(Boolean).join('; ') : (c.errorMessage ?? null),
      latencyMs: c.latencyMs ?? (c.finishedAt ? Math.max(0, Date.parse(c.finishedAt) - Date.parse(c.startedAt)) : null),
      attempts: c.attempts,
      idempotencyKey: c.idempotencyKey ?? null,
      args: scrubTree(args, sensitive),
      result: scrubTree(result, sensitive),
      requestId: c.requestId ?? requestId,
    })
  }
  const accepted = await insertCalls(records)
  return { accepted, duplicates: records.length - accepted }
}
