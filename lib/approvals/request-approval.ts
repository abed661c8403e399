// The gateway holds a call for a human: one ApprovalRequest per call, with the arguments sealed for
// the worker that will run it and redacted for the people who decide.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { ApprovalRequest, Prisma } from '@/lib/generated/prisma/client'
import { onBehalfOfColumns, type Person } from '@/lib/identity/person'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { sealSecretValues } from '@/lib/secrets/encryption'
import { storableJson } from '@/lib/storage/storable-text'
import { publishWebhookEvent } from '@/lib/webhooks/publish-webhook-event'
import { approvalExpirySeconds, approvalPresentation } from './approval-defaults'
import { heldPersonColumns } from './held-person'
import type { ApprovalSpec } from './approval-template'
import { type ApprovalRateLimits, toApprovalView } from './approval-view'
import { renderApprovalReading } from './render-approval-summary'

export interface ApprovalRequestInput {
  callId: string
  agent: { id: string; namespace: string; name: string; unit: string | null }
  /** `resourceNamespace`: the Tool resource's namespace when the tool is a registered Tool. */
  tool: {
    id: string
    namespace: string
    level: SideEffectLevel | null
    resourceNamespace?: string | null
    /** Shown to approvers on the detail, and read for the default summary (titles, formats). */
    description?: string | null
    inputSchema?: unknown
  }
  /** Why approval is needed, as the effective entry says (tool override, level policy, or default), or only because a Policy rule asked. */
  approvalSource: 'tool' | 'policy' | 'default' | 'policy_rule'
  /** The Policy rules that asked for approval, with their reasons: the queue shows them (docs/design/policy.md#approval). */
  policyRules?: Array<{ policy: string; rule: number; reason: string }>
  /** As called (sealed until execution). */
  args: unknown
  /** With `redactFields` masked (shown to approvers). */
  redactedArgs: unknown
  /** As stored in the call log (secret-looking keys are masked there). */
  idempotencyKey: string | null
  /** The key as the caller gave or the template rendered it, sealed with the arguments, so the result can answer repeats. */
  rawIdempotencyKey?: string | null
  rateLimit?: ApprovalRateLimits
  /** The W3C traceparent of the call (tracing on): the approved execution's span links to it. */
  traceparent?: string | null
  /** The person the call is made for, if any: approvers see "agent for person", and the run acts for them (./held-person.ts). */
  person?: Person | null
}

type Db = Pick<Prisma.TransactionClient, 'approvalRequest' | 'tool' | 'sideEffectPolicy' | 'delegatedAccessToken'>

export async function requestApproval(input: ApprovalRequestInput, db: Db = prisma): Promise<ApprovalRequest> {
  const { expiry, presentation, approval } = await approvalPolicyFor(input.tool, db)
  const reading = renderApprovalReading({
    args: input.redactedArgs,
    inputSchema: input.tool.inputSchema,
    description: input.tool.description,
    approval,
    summaryFields: presentation.summaryFields,
  })
  const sealed = sealSecretValues({ args: JSON.stringify(input.args ?? {}), ...(input.rawIdempotencyKey ? { key: input.rawIdempotencyKey } : {}) })
  const person = await heldPersonColumns(input.person, db)
  const row = await db.approvalRequest.create({
    data: {
      callId: input.callId,
      agentId: input.agent.id,
      agentNamespace: input.agent.namespace,
      agentName: input.agent.name,
      unit: input.agent.unit,
      toolId: input.tool.id,
      toolNamespace: input.tool.namespace,
      level: input.tool.level,
      args: storableJson(input.redactedArgs ?? null) as Prisma.InputJsonValue,
      argsSealed: new Uint8Array(sealed.ciphertext),
      argsKeyId: sealed.keyId,
      idempotencyKey: input.idempotencyKey,
      policy: {
        source: input.approvalSource,
        level: input.tool.level,
        expirySeconds: expiry.seconds,
        expirySource: expiry.source,
        ...presentation,
        ...(input.policyRules?.length ? { rules: input.policyRules } : {}),
      },
      reading: storableJson<unknown>(reading) as Prisma.InputJsonValue,
      ...(input.policyRules?.length ? { policyRules: storableJson(input.policyRules) as Prisma.InputJsonValue } : {}),
      ...(input.rateLimit !== undefined ? { rateLimit: input.rateLimit as unknown as Prisma.InputJsonValue } : {}),
      expiresAt: new Date(Date.now() + expiry.seconds * 1000),
      traceparent: input.traceparent ?? null,
      ...onBehalfOfColumns(input.person),
      ...person,
    },
  })
  return row
}

/** After the request is committed: tell the webhooks. Never fails the call. */
export async function announceApprovalRequest(row: ApprovalRequest): Promise<void> {
  await publishWebhookEvent('approval.requested', { approval: toApprovalView(row) }).catch((e) =>
    console.error(`[approvals] webhook for approval ${row.id} not queued: ${(e as Error).message}`),
  )
}

// Tool override (`sideEffects.approvalExpirySeconds`, `approvalSummary`), else the level's policy,
// else the default; kept with the request, so approvers see it as it was when the call was made.
export async function approvalPolicyFor({ id, level, resourceNamespace }: ApprovalRequestInput['tool'], db: Db = prisma) {
  const [tool, policy] = await Promise.all([
    resourceNamespace ? db.tool.findUnique({ where: { namespace_name: { namespace: resourceNamespace, name: id } }, select: { spec: true } }) : null,
    level ? db.sideEffectPolicy.findUnique({ where: { level }, select: { spec: true } }) : null,
  ])
  const toolSpec = tool?.spec as { sideEffects?: { approvalExpirySeconds?: number; approvalSummary?: string[] }; approval?: ApprovalSpec } | undefined
  const toolSide = toolSpec?.sideEffects
  const policySpec = policy?.spec as { approvalExpirySeconds?: number; approvalSummary?: string[]; highRisk?: boolean } | undefined
  return {
    expiry: approvalExpirySeconds({
      tool: toolSide?.approvalExpirySeconds,
      policy: policySpec?.approvalExpirySeconds,
      fallback: config().TOOLROOM_APPROVAL_EXPIRY_SECONDS,
    }),
    presentation: approvalPresentation({
      level,
      toolSummary: toolSide?.approvalSummary,
      policySummary: policySpec?.approvalSummary,
      policyHighRisk: policySpec?.highRisk,
    }),
    approval: toolSpec?.approval ?? null,
  }
}
