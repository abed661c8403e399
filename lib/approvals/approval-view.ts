// What approvers and the API see of an approval request: never the sealed arguments, always how
// long is left.
import type { RateLimit } from '@/lib/effective-tools/types'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { onBehalfOfOf, type OnBehalfOf } from '@/lib/identity/person'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { approvalPresentation } from './approval-defaults'
import type { ApprovalReading } from './render-approval-summary'
import { type ArgumentSummaryEntry, summarizeArguments } from './summarize-arguments'

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number]

/** After approval, the execution by a worker. */
export const APPROVAL_EXECUTIONS = ['queued', 'running', 'succeeded', 'failed'] as const
export type ApprovalExecution = (typeof APPROVAL_EXECUTIONS)[number]

/** The rate limits in force when the gateway held the call (null: no limit), as it records them. */
export interface ApprovalRateLimits {
  tool: RateLimit
  agent: RateLimit
}

export interface ApprovalView {
  id: string
  callId: string
  status: ApprovalStatus
  agent: { id: string; namespace: string; name: string; unit: string | null }
  /** The person the agent asked for ("ap-clerk for Jane Doe"); null when it acted on its own. */
  onBehalfOf: OnBehalfOf | null
  /**
   * Until when the call can still be made for that person, when it comes before `expiresAt`: their token
   * from their identity provider expires then, and an approved call that runs later fails rather than
   * act for them (docs/design/approvals.md#on-whose-behalf). Null otherwise.
   */
  onBehalfOfUntil: string | null
  /** `description`: the tool's, as it was when the call was held (null on requests from before it was kept). */
  tool: { id: string; namespace: string; level: string | null; description: string | null }
  args: unknown
  /** What the call will do in one line: the Tool's `approval.summary` template, else built from its input schema. */
  summaryLine: string
  summarySource: 'template' | 'schema'
  /** The arguments the queue shows in the request's row (the tool's or level's `approvalSummary`, else the first few), in their units. */
  summary: ArgumentSummaryEntry[]
  /** The Policy rules that asked for this approval, with their reasons (empty when the tool or its level asked). */
  policyRules: Array<{ policy: string; rule: number; reason: string }>
  /** Approving asks for a confirmation first (the level's `highRisk`; financial and privileged by default). */
  highRisk: boolean
  idempotencyKey: string | null
  policy: unknown
  rateLimit: ApprovalRateLimits | null
  requestedAt: string
  expiresAt: string
  /** Seconds until expiry while pending; 0 once past it. */
  secondsLeft: number | null
  /** `effectiveAt`: until then the decision can be undone and the call does not run. */
  decision: { by: string | null; byId: string | null; at: string | null; comment: string | null; effectiveAt: string | null } | null
  execution: { status: ApprovalExecution; at: string | null; error: string | null } | null
}

/** What the request recorded of its presentation; requests from before it was recorded get today's defaults. */
interface StoredPolicy {
  summaryFields?: string[] | null
  highRisk?: boolean
  rules?: unknown
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The reading rendered when the call was held; requests from before it was kept get the plain summary. */
function storedReading(row: ApprovalRequest, stored: StoredPolicy): ApprovalReading {
  const reading = row.reading as Partial<ApprovalReading> | null
  if (isRecord(reading) && typeof reading.line === 'string' && Array.isArray(reading.entries))
    return {
      line: reading.line,
      source: reading.source === 'template' ? 'template' : 'schema',
      entries: reading.entries,
      description: typeof reading.description === 'string' ? reading.description : null,
    }
  const entries = summarizeArguments(row.args, Array.isArray(stored.summaryFields) ? stored.summaryFields : null)
  return { line: entries.map((e) => `${e.field}: ${e.value}`).join(' · ') || 'no arguments', source: 'schema', entries, description: null }
}

function storedPolicyRules(row: ApprovalRequest, stored: StoredPolicy): ApprovalView['policyRules'] {
  const rules = Array.isArray(row.policyRules) ? row.policyRules : Array.isArray(stored.rules) ? stored.rules : []
  return rules.filter(isRecord).map((r) => ({ policy: String(r.policy ?? ''), rule: Number(r.rule ?? 0), reason: String(r.reason ?? '') }))
}

export function toApprovalView(row: ApprovalRequest, now = Date.now()): ApprovalView {
  const stored = (row.policy ?? {}) as StoredPolicy
  const fallback = approvalPresentation({ level: row.level as SideEffectLevel | null })
  const reading = storedReading(row, stored)
  return {
    id: row.id,
    callId: row.callId,
    status: row.status as ApprovalStatus,
    agent: { id: row.agentId, namespace: row.agentNamespace, name: row.agentName, unit: row.unit },
    onBehalfOf: onBehalfOfOf(row),
    onBehalfOfUntil: row.subjectExpiresAt && row.subjectExpiresAt < row.expiresAt ? row.subjectExpiresAt.toISOString() : null,
    tool: { id: row.toolId, namespace: row.toolNamespace, level: row.level, description: reading.description },
    args: row.args,
    summaryLine: reading.line,
    summarySource: reading.source,
    summary: reading.entries,
    policyRules: storedPolicyRules(row, stored),
    highRisk: typeof stored.highRisk === 'boolean' ? stored.highRisk : fallback.highRisk,
    idempotencyKey: row.idempotencyKey,
    policy: row.policy,
    rateLimit: row.rateLimit as ApprovalRateLimits | null,
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    secondsLeft: row.status === 'pending' ? Math.max(0, Math.round((row.expiresAt.getTime() - now) / 1000)) : null,
    decision: row.decidedAt
      ? {
          by: row.decidedByName,
          byId: row.decidedById,
          at: row.decidedAt.toISOString(),
          comment: row.comment,
          effectiveAt: row.effectiveAt?.toISOString() ?? null,
        }
      : null,
    execution: row.execution ? { status: row.execution as ApprovalExecution, at: row.executedAt?.toISOString() ?? null, error: row.executionError } : null,
  }
}
