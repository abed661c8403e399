// The global search's fetcher and the portal address of each hit.
import type { ApprovalHit, CallHit, ResourceHit, SearchResult } from '@/lib/search/search-everything'
import { apiFetch, qs } from './api'
import { resourceHref } from './links'

export type { ApprovalHit, CallHit, ResourceHit, SearchResult }

export const search = (q: string, limit = 5) => apiFetch<SearchResult>(`/api/v1/search${qs({ q, limit })}`)

export const resourceHitHref = (hit: ResourceHit) => resourceHref(hit.kind, hit.id)
export const approvalHitHref = (hit: ApprovalHit) =>
  `/approvals${qs({ status: hit.status === 'pending' ? undefined : hit.status, tool: hit.toolId, agent: hit.agent.name })}`
export const callHitHref = (hit: CallHit) => `/calls${qs({ call: hit.id })}`
