// The approval queue over REST: read it, decide one or many, see its figures; and the webhooks
// that announce new requests and decisions.
import { z } from '@/lib/http/zod'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { auditActorOf as auditActor } from '@/lib/audit/audit-actor'
import { decideApproval, decideApprovals } from '@/lib/approvals/decide-approval'
import { approvalQueueStats, getApproval, listApprovals } from '@/lib/approvals/list-approvals'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, updateWebhook } from '@/lib/webhooks/manage-webhooks'
import { WEBHOOK_EVENTS } from '@/lib/webhooks/publish-webhook-event'
import { webhookSecretSchema } from '@/lib/webhooks/sign-webhook'

const id = z.object({ id: z.string().uuid() })
const approval = z.record(z.string(), z.unknown()).openapi('Approval')
const comment = z.string().max(2000)
const decisionBody = z.strictObject({ comment: comment.optional() }).optional()

const listQuery = z.strictObject({
  status: z.enum(['pending', 'approved', 'denied', 'expired']).default('pending'),
  level: z.enum(SIDE_EFFECT_LEVELS).optional(),
  agent: z.string().max(253).optional(),
  tool: z.string().max(253).optional(),
  namespace: z.string().max(63).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(1000).optional(),
})

const webhookBody = z.strictObject({
  name: z.string().min(1).max(100).regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be lowercase letters, digits and hyphens'),
  url: z.string().url().max(2000).refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  enabled: z.boolean().optional(),
  secret: webhookSecretSchema.optional().openapi({ description: 'The signing secret (Standard Webhooks: `whsec_` and base64 of 24–64 bytes); leave out to have one generated' }),
})
const webhook = z.record(z.string(), z.unknown()).openapi('Webhook')

export const APPROVAL_CONTRACTS = {
  list: {
    method: 'GET', path: '/api/v1/approvals', operationId: 'listApprovals', tags: ['Approvals'], access: 'read',
    summary: 'The approval queue: pending requests oldest first (?status=approved|denied|expired: decided ones, newest first)',
    query: listQuery, response: z.object({ items: z.array(approval), total: z.number().int(), nextCursor: z.string().nullable() }),
  },
  stats: {
    method: 'GET', path: '/api/v1/approvals/stats', operationId: 'approvalStats', tags: ['Approvals'], access: 'read',
    summary: 'Queue depth and time to decision (p50, p95) over the last 7 days', response: z.record(z.string(), z.unknown()).openapi('ApprovalStats'),
  },
  get: {
    method: 'GET', path: '/api/v1/approvals/{id}', operationId: 'getApproval', tags: ['Approvals'], access: 'read',
    summary: 'One approval request with its decision and execution', params: id, response: approval,
  },
  approve: {
    method: 'POST', path: '/api/v1/approvals/{id}/approve', operationId: 'approveCall', tags: ['Approvals'], access: 'approve',
    summary: 'Approve a pending call; a worker then runs it once. 409 names who decided first.', params: id, body: decisionBody, response: approval,
  },
  deny: {
    method: 'POST', path: '/api/v1/approvals/{id}/deny', operationId: 'denyCall', tags: ['Approvals'], access: 'approve',
    summary: 'Deny a pending call; it never runs. 409 names who decided first.', params: id, body: decisionBody, response: approval,
  },
  bulk: {
    method: 'POST', path: '/api/v1/approvals/decide', operationId: 'decideApprovals', tags: ['Approvals'], access: 'approve',
    summary: 'One decision for many requests; each succeeds or fails on its own',
    body: z.strictObject({ ids: z.array(z.string().uuid()).min(1).max(500), decision: z.enum(['approve', 'deny']), comment: comment.optional() }),
    response: z.object({ results: z.array(z.object({ id: z.string(), ok: z.boolean(), approval: approval.optional(), error: z.string().optional() })) }),
  },
  webhooks: {
    method: 'GET', path: '/api/v1/webhooks', operationId: 'listWebhooks', tags: ['Approvals'], access: 'admin',
    summary: 'Webhook endpoints (signing secrets are never shown again)', response: z.object({ items: z.array(webhook) }),
  },
  createWebhook: {
    method: 'POST', path: '/api/v1/webhooks', operationId: 'createWebhook', tags: ['Approvals'], access: 'admin',
    summary: 'Add a webhook endpoint; the answer carries its signing secret, once', body: webhookBody, response: webhook, successStatus: 201,
  },
  updateWebhook: {
    method: 'PATCH', path: '/api/v1/webhooks/{id}', operationId: 'updateWebhook', tags: ['Approvals'], access: 'admin',
    summary: 'Change a webhook endpoint (url, events, enabled)', params: id, body: webhookBody.omit({ secret: true, name: true }).partial(), response: webhook,
  },
  deleteWebhook: {
    method: 'DELETE', path: '/api/v1/webhooks/{id}', operationId: 'deleteWebhook', tags: ['Approvals'], access: 'admin',
    summary: 'Remove a webhook endpoint', params: id, successStatus: 204,
  },
  deliveries: {
    method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', operationId: 'listWebhookDeliveries', tags: ['Approvals'], access: 'admin',
    summary: 'Recent deliveries to an endpoint, newest first', params: id, response: z.object({ items: z.array(z.record(z.string(), z.unknown())) }),
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
  bulk: route(C.bulk, async ({ body, actor, requestId }) => ({ results: await decideApprovals(body.ids, body.decision, auditActor(actor), body.comment, requestId) })),
  webhooks: route(C.webhooks, async () => listWebhooks()),
  createWebhook: route(C.createWebhook, async ({ body }) => createWebhook(body)),
  updateWebhook: route(C.updateWebhook, async ({ params, body }) => updateWebhook(params.id, body)),
  deleteWebhook: route(C.deleteWebhook, async ({ params }) => deleteWebhook(params.id)),
  deliveries: route(C.deliveries, async ({ params }) => listDeliveries(params.id)),
}
