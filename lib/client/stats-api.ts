// Typed fetches of the statistics and calls API (lib/api/stats-routes.ts).
import type { CallStats } from '@/lib/stats/read-call-stats'
import { apiFetch, qs } from './api'

export type { CallStats }
export type StatsSubject = { dimension: 'all' } | { dimension: 'tool'; toolId: string } | { dimension: 'agent' | 'unit'; id: string; namespace?: string } | { dimension: 'namespace'; namespace: string }

export function statsPath(subject: StatsSubject): string {
  switch (subject.dimension) {
    case 'all':
      return '/api/v1/stats/overview'
    case 'tool':
      return `/api/v1/stats/tools/${encodeURIComponent(subject.toolId)}`
    case 'namespace':
      return `/api/v1/stats/namespaces/${encodeURIComponent(subject.namespace)}`
    default:
      return `/api/v1/stats/${subject.dimension}s/${encodeURIComponent(subject.id)}${qs({ namespace: subject.namespace })}`
  }
}

export const getCallStats = (subject: StatsSubject) => apiFetch<CallStats>(statsPath(subject))

export interface FailingTool {
  toolId: string
  calls: number
  failures: number
  refused: number
  failureRate: number
}
export const getTopFailingTools = (limit = 10) => apiFetch<{ items: FailingTool[] }>(`/api/v1/stats/top-failing-tools${qs({ limit })}`)

export interface ToolCallRow {
  id: string
  startedAt: string
  finishedAt: string | null
  agentId: string
  agentNamespace: string
  agentName: string
  unit: string | null
  toolId: string
  toolNamespace: string
  provenance: string
  level: string | null
  channel: string
  outcome: string
  errorCode: string | null
  errorMessage: string | null
  latencyMs: number | null
  attempts: number
  idempotencyKey: string | null
  requestId: string | null
}
export interface ToolCallDetail extends ToolCallRow {
  args: unknown
  result: unknown
}

export interface CallFilters {
  agentId?: string
  tool?: string
  namespace?: string
  outcome?: string
  channel?: string
  from?: string
  to?: string
}

export const listCalls = (filters: CallFilters, limit: number, cursor: string | null) =>
  apiFetch<{ items: ToolCallRow[]; nextCursor: string | null }>(`/api/v1/calls${qs({ ...filters, limit, cursor })}`)
export const getCall = (id: string) => apiFetch<ToolCallDetail>(`/api/v1/calls/${encodeURIComponent(id)}`)
