// Fetchers for the approval queue and its webhooks.
import type { z } from 'zod'
import type { APPROVAL_CONTRACTS, approvalSchema, approvalStatsSchema, webhookDeliverySchema, webhookSchema } from '@/lib/api/approval-routes'
import { type AnswerOf, apiFetch, apiText, type BodyOf, qs } from './api'

type C = typeof APPROVAL_CONTRACTS
export type ApprovalView = z.output<typeof approvalSchema>
export type ApprovalStatus = ApprovalView['status']
export type ApprovalQueueStats = z.output<typeof approvalStatsSchema>
export type ApprovalPage = AnswerOf<C['list']>
export type BulkDecisionResult = AnswerOf<C['bulk']>['results'][number]
export type Decision = BodyOf<C['bulk']>['decision']
export type Webhook = z.output<typeof webhookSchema>
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>

/** Requests per page of the queue (the server renders the first page with the same size). */
export const APPROVAL_PAGE_SIZE = 20

export interface ApprovalFilters {
  status: ApprovalStatus
  level?: string
  agent?: string
  tool?: string
  namespace?: string
}

export function listApprovals(filters: ApprovalFilters, limit: number, cursor?: string | null) {
  return apiFetch<ApprovalPage>(`/api/v1/approvals${qs({ ...filters, limit, cursor: cursor ?? undefined })}`)
}

export function getApproval(id: string) {
  return apiFetch<ApprovalView>(`/api/v1/approvals/${encodeURIComponent(id)}`)
}

export function getApprovalStats() {
  return apiFetch<ApprovalQueueStats>('/api/v1/approvals/stats')
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** 409 when someone decided first; its message names who. */
export function decideApproval(id: string, decision: Decision, comment?: string) {
  return apiFetch<ApprovalView>(`/api/v1/approvals/${encodeURIComponent(id)}/${decision}`, json(comment ? { comment } : {}))
}

/** 409 once the decision took effect (or the call started); its message says which. */
export function undoApproval(id: string) {
  return apiFetch<ApprovalView>(`/api/v1/approvals/${encodeURIComponent(id)}/undo`, { method: 'POST' })
}

export function decideApprovals(ids: string[], decision: Decision, comment?: string) {
  return apiFetch<AnswerOf<C['bulk']>>('/api/v1/approvals/decide', json({ ids, decision, ...(comment ? { comment } : {}) }))
}

export const listWebhooks = () => apiFetch<AnswerOf<C['webhooks']>>('/api/v1/webhooks')
export const createWebhook = (body: BodyOf<C['createWebhook']>) => apiFetch<AnswerOf<C['createWebhook']>>('/api/v1/webhooks', json(body))
export const updateWebhook = (id: string, patch: BodyOf<C['updateWebhook']>) =>
  apiFetch<AnswerOf<C['updateWebhook']>>(`/api/v1/webhooks/${encodeURIComponent(id)}`, { ...json(patch), method: 'PATCH' })
/** 204 No Content: read as (empty) text, which still turns problem+json answers into ApiError. */
export const deleteWebhook = (id: string) => apiText(`/api/v1/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' })
export const listWebhookDeliveries = (id: string) => apiFetch<AnswerOf<C['deliveries']>>(`/api/v1/webhooks/${encodeURIComponent(id)}/deliveries`)
