// The approval queue over REST: read it, decide one or many, see its figures; and the webhooks
// that announce new requests and decisions.
import { z } from '@/lib/http/zod'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { onBehalfOfSchema } from './schemas'
import { auditActorOf as auditActor } from '@/lib/audit/audit-actor'
import { decideApproval, decideApprovals } from '@/lib/approvals/decide-approval'
import { undoDecision } from '@/lib/approvals/undo-decision'
import { type ApprovalQueueStats, approvalQueueStats, getApproval, listApprovals } from '@/lib/approvals/list-approvals'
import { APPROVAL_EXECUTIONS, APPROVAL_STATUSES, type ApprovalView } from '@/lib/approvals/approval-view'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, updateWebhook } from '@/lib/webhooks/manage-webhooks'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from '@/lib/webhooks/webhook-events'
import { webhookSecretSchema } from '@/lib/webhooks/sign-webhook'

const id = z.object({ id: z.string().uuid() })
const rateLimit = z.object({ callsPerMinute: z.number().int().nullable(), callsPerDay: z.number().int().nullable() })
export const approvalSchema = z
  .object({
    id: z.string().uuid(),
    callId: z.string().uuid(),
    status: z.enum(APPROVAL_STATUSES),
    agent: z.object({ id: z.string(), namespace: z.string(), name: z.string(), unit: z.string().nullable() }),
    onBehalfOf: onBehalfOfSchema,
    onBehalfOfUntil: z.string().datetime().nullable().openapi({
      description:
        "Until when the call can still be made for `onBehalfOf`, when that comes before `expiresAt`: the person's token from their identity provider expires then, and a call approved and run later fails instead of acting for them",
    }),
    tool: z.object({
      id: z.string(),
      namespace: z.string(),
      level: z.string().nullable(),
      description: z.string().nullable().openapi({ description: "The tool's description when the call was held (null on requests from before it was kept)" }),
    }),
    args: z.unknown().openapi({ description: 'The arguments as recorded for approvers: redactFields masked' }),
    summaryLine: z.string().openapi({
      description: "What the call will do, in one line: the Tool's `approval.summary` template (`Refund €12,500.00 on ch_1`), else built from its input schema",
      example: 'Refund €12,500.00 on ch_3Nx',
    }),
    summarySource: z.enum(['template', 'schema']).openapi({ description: "`template`: the Tool's `approval.summary`; `schema`: built from its input schema" }),
    summary: z
      .array(
        z.object({
          field: z.string().openapi({ description: "The argument's path: `amount`, `customer.id`" }),
          value: z.string().openapi({ description: 'Its value in one short line, in its unit when the Tool declares one (`€12,500.00`, `1.5 GiB`)' }),
          label: z.string().optional().openapi({ description: "The argument's title in the input schema, or the Tool's `approval.fields` label" }),
          href: z.string().optional().openapi({ description: 'A link the Tool declares for it (http or https; values URL-encoded)' }),
          absent: z.boolean().optional().openapi({ description: 'The call left it out: `value` says what that means (`full refund`)' }),
        }),
      )
      .openapi({ description: "The arguments a queue row shows: the tool's or level's `approvalSummary`, else the first few" }),
    policyRules: z
      .array(z.object({ policy: z.string().openapi({ description: '`namespace/name` of the Policy' }), rule: z.number().int(), reason: z.string() }))
      .openapi({ description: 'The Policy rules that asked for this approval, with their reasons (empty when the tool or its level asked)' }),
    highRisk: z.boolean().openapi({ description: "Approving asks for a confirmation first (the level's `highRisk`; financial and privileged by default)" }),
    idempotencyKey: z.string().nullable(),
    policy: z.unknown().openapi({ description: "What required the approval: the tool, its level's policy, or the shipped default" }),
    rateLimit: z.object({ tool: rateLimit, agent: rateLimit }).nullable().openapi({ description: 'The rate limits in force when the call was held' }),
    requestedAt: z.string().openapi({ format: 'date-time' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    secondsLeft: z.number().int().nullable().openapi({ description: 'Seconds until expiry while pending; 0 once past it' }),
    decision: z
      .object({
        by: z.string().nullable(),
        byId: z.string().nullable(),
        at: z.string().nullable(),
        comment: z.string().nullable(),
        effectiveAt: z
          .string()
          .nullable()
          .openapi({ format: 'date-time', description: 'Until then the decision can be undone (POST …/undo) and an approved call does not run' }),
      })
      .nullable(),
    execution: z.object({ status: z.enum(APPROVAL_EXECUTIONS), at: z.string().nullable(), error: z.string().nullable() }).nullable(),
  })
  .openapi('Approval') satisfies z.ZodType<ApprovalView>
const approval = approvalSchema

export const approvalStatsSchema = z
  .object({
    pending: z.number().int(),
    oldestPendingAt: z.string().nullable(),
    timeToDecisionSeconds: z.object({ p50: z.number().nullable(), p95: z.number().nullable(), decided: z.number().int() }),
    decided7d: z.object({ approved: z.number().int(), denied: z.number().int(), expired: z.number().int() }),
  })
  .openapi('ApprovalStats') satisfies z.ZodType<ApprovalQueueStats>
const comment = z.string().max(2000)
const decisionBody = z.strictObject({ comment: comment.optional() }).optional()

const listQuery = z.strictObject({
  status: z.enum(APPROVAL_STATUSES).default('pending'),
  level: z.enum(SIDE_EFFECT_LEVELS).optional(),
  agent: z.string().max(253).optional(),
  tool: z.string().max(253).optional(),
  namespace: z.string().max(63).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(1000).optional(),
})

const webhookBody = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be lowercase letters, digits and hyphens'),
  url: z
    .string()
    .url()
    .max(2000)
    .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  enabled: z.boolean().optional(),
  secret: webhookSecretSchema
    .optional()
    .openapi({ description: 'The signing secret (Standard Webhooks: `whsec_` and base64 of 24–64 bytes); leave out to have one generated' }),
})
export const webhookSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Webhook')
const webhook = webhookSchema

export const webhookDeliverySchema = z
  .object({
    id: z.string().uuid(),
    endpointId: z.string().uuid(),
    event: z.enum(WEBHOOK_EVENTS),
    payload: z.unknown().openapi({ description: 'What was posted, but its delivery id' }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    deliveredAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookDelivery')

export const APPROVAL_CONTRACTS = {
  list: {
    method: 'GET',
    path: '/api/v1/approvals',
    operationId: 'listApprovals',
    tags: ['Approvals'],
    access: 'read',
    summary: 'The approval queue: pending requests oldest first (?status=approved|denied|expired: decided ones, newest first)',
    query: listQuery,
    response: z.object({ items: z.array(approval), total: z.number().int(), nextCursor: z.string().nullable() }).openapi('ApprovalPage'),
  },
  stats: {
    method: 'GET',
    path: '/api/v1/approvals/stats',
    operationId: 'approvalStats',
    tags: ['Approvals'],
    access: 'read',
    summary: 'Queue depth and time to decision (p50, p95) over the last 7 days',
    response: approvalStatsSchema,
  },
  get: {
    method: 'GET',
    path: '/api/v1/approvals/{id}',
    operationId: 'getApproval',
    tags: ['Approvals'],
    access: 'read',
    summary: 'One approval request with its decision and execution',
    params: id,
    response: approval,
  },
  approve: {
    method: 'POST',
    path: '/api/v1/approvals/{id}/approve',
    operationId: 'approveCall',
    tags: ['Approvals'],
    access: 'approve',
    summary: 'Approve a pending call; a worker then runs it once. 409 names who decided first.',
    params: id,
    body: decisionBody,
    response: approval,
  },
  deny: {
    method: 'POST',
    path: '/api/v1/approvals/{id}/deny',
    operationId: 'denyCall',
    tags: ['Approvals'],
    access: 'approve',
    summary: 'Deny a pending call; it never runs. 409 names who decided first.',
    params: id,
    body: decisionBody,
    response: approval,
  },
  undo: {
    method: 'POST',
    path: '/api/v1/approvals/{id}/undo',
    operationId: 'undoDecision',
    tags: ['Approvals'],
    access: 'approve',
    summary:
      'Take back a decision before it takes effect (`decision.effectiveAt`, TOOLROOM_APPROVAL_UNDO_SECONDS after it): the request is pending again and an approved call does not run. Only whoever decided, or an admin; 403 for anyone else, 409 once it took effect or the call started.',
    params: id,
    response: approval,
  },
  bulk: {
    method: 'POST',
    path: '/api/v1/approvals/decide',
    operationId: 'decideApprovals',
    tags: ['Approvals'],
    access: 'approve',
    summary: 'One decision for many requests; each succeeds or fails on its own',
    body: z.strictObject({ ids: z.array(z.string().uuid()).min(1).max(500), decision: z.enum(['approve', 'deny']), comment: comment.optional() }),
    response: z
      .object({ results: z.array(z.object({ id: z.string(), ok: z.boolean(), approval: approval.optional(), error: z.string().optional() })) })
      .openapi('BulkDecision'),
  },
  webhooks: {
    method: 'GET',
    path: '/api/v1/webhooks',
    operationId: 'listWebhooks',
    tags: ['Approvals'],
    access: 'admin',
    summary: 'Webhook endpoints (signing secrets are never shown again)',
    response: z.object({ items: z.array(webhook) }),
  },
  createWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks',
    operationId: 'createWebhook',
    tags: ['Approvals'],
    access: 'admin',
    summary: 'Add a webhook endpoint; the answer carries its signing secret, once',
    body: webhookBody,
    response: webhook.extend({ secret: z.string() }),
    successStatus: 201,
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/api/v1/webhooks/{id}',
    operationId: 'updateWebhook',
    tags: ['Approvals'],
    access: 'admin',
    summary: 'Change a webhook endpoint (url, events, enabled)',
    params: id,
    body: webhookBody.omit({ secret: true, name: true }).partial(),
    response: webhook,
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/api/v1/webhooks/{id}',
    operationId: 'deleteWebhook',
    tags: ['Approvals'],
    access: 'admin',
    summary: 'Remove a webhook endpoint',
    params: id,
    successStatus: 204,
  },
  deliveries: {
    method: 'GET',
    path: '/api/v1/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tags: ['Approvals'],
    access: 'admin',
    summary: 'Recent deliveries to an endpoint, newest first',
    params: id,
    response: z.object({ items: z.array(webhookDeliverySchema) }),
  },
} satisfies Record<string, RouteContract>

const C = APPROVAL_CONTRACTS
export const approvalRoutes = {
  list: route(C.list, async ({ query }) => listApprovals(query)),
  stats: route(C.stats, async () => approvalQueueStats()),
  get: route(C.get, async ({ params }) => getApproval(params.id)),
  approve: route(C.approve, async ({ params, body, actor, requestId }) =>
    decideApproval({ id: params.id, decision: 'approve', comment: body?.comment, actor: auditActor(actor), requestId }),
  ),
  deny: route(C.deny, async ({ params, body, actor, requestId }) =>
    decideApproval({ id: params.id, decision: 'deny', comment: body?.comment, actor: auditActor(actor), requestId }),
  ),
  undo: route(C.undo, async ({ params, actor, requestId }) => undoDecision({ id: params.id, actor, requestId })),
  bulk: route(C.bulk, async ({ body, actor, requestId }) => ({
    results: await decideApprovals(body.ids, body.decision, auditActor(actor), body.comment, requestId),
  })),
  webhooks: route(C.webhooks, async () => listWebhooks()),
  createWebhook: route(C.createWebhook, async ({ body }) => createWebhook(body)),
  updateWebhook: route(C.updateWebhook, async ({ params, body }) => updateWebhook(params.id, body)),
  deleteWebhook: route(C.deleteWebhook, async ({ params }) => deleteWebhook(params.id)),
  deliveries: route(C.deliveries, async ({ params }) => listDeliveries(params.id)),
}
