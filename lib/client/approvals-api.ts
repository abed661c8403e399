// Fetchers for the approval queue and its webhooks.
import type { ApprovalQueueStats } from '@/lib/approvals/list-approvals'
import type { ApprovalStatus, ApprovalView } from '@/lib/approvals/approval-view'
import { apiFetch, qs } from './api'

export type { ApprovalQueueStats, ApprovalStatus, ApprovalView }
export type Decision = 'approve' | 'deny'

/** Requests per page of the queue (the server renders the first page with the same size). */
export const APPROVAL_PAGE_SIZE = 50

export interface ApprovalFilters {
  status: ApprovalStatus
  level?: string
  agent?: string
  tool?: string
  namespace?: string
}

export interface ApprovalPage {
  items: ApprovalView[]
  total: number
  nextCursor: string | null
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

export interface BulkDecisionResult {
  id: string
  ok: boolean
  approval?: ApprovalView
  error?: string
}

export function decideApprovals(ids: string[], decision: Decision, comment?: string) {
  return apiFetch<{ results: BulkDecisionResult[] }>('/api/v1/approvals/decide', json({ ids, decision, ...(comment ? { comment } : {}) }))
}

export interface Webhook {
  id: string
  name: string
  url: string
  events: string[]
  enabled: boolean
  createdAt: string
  updatedAt: string
}

export interface WebhookDelivery {
  id: string
  event: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  lastStatus: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

export const listWebhooks = () => apiFetch<{ items: Webhook[] }>('/api/v1/webhooks')
export const createWebhook = (body: { name: string; url: string; events: string[] }) => apiFetch<Webhook & { secret: string }>('/api/v1/webhooks', json(body))
export const updateWebhook = (id: string, patch: Partial<Pick<Webhook, 'url' | 'events' | 'enabled'>>) =>
  apiFetch<Webhook>(`/api/v1/webhooks/${encodeURIComponent(id)}`, { ...json(patch), method: 'PATCH' })
export const deleteWebhook = async (id: string) => {
  await fetch(`/api/v1/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }).then(async (r) => {
    if (!r.ok) throw new Error((await r.json().catch(() => ({})))?.detail ?? `HTTP ${r.status}`)
  })
}
export const listWebhookDeliveries = (id: string) => apiFetch<{ items: WebhookDelivery[] }>(`/api/v1/webhooks/${encodeURIComponent(id)}/deliveries`)
