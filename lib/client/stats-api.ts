// Typed fetches of the statistics and calls API (lib/api/stats-routes.ts).
import type { z } from 'zod'
import type { toolCallDetail, toolCallRow } from '@/lib/api/stats-routes'
import type { CallStats, FailingTool } from '@/lib/stats/read-call-stats'
import { apiFetch, qs } from './api'

export type { CallStats, FailingTool }
export type ToolCallRow = z.output<typeof toolCallRow>
export type ToolCallDetail = z.output<typeof toolCallDetail>
/** `tool` is a Tool resource (its own calls); `resolvedTool` any resolved tool by its stat key. */
export type StatsSubject =
  | { dimension: 'all' }
  | { dimension: 'tool' | 'agent' | 'unit'; id: string; namespace?: string }
  | { dimension: 'resolvedTool'; key: string }
  | { dimension: 'namespace'; namespace: string }

export function statsPath(subject: StatsSubject): string {
  switch (subject.dimension) {
    case 'all':
      return '/api/v1/stats/overview'
    case 'resolvedTool':
      return `/api/v1/stats/tools${qs({ key: subject.key })}`
    case 'namespace':
      return `/api/v1/stats/namespaces/${encodeURIComponent(subject.namespace)}`
    default:
      return `/api/v1/stats/${subject.dimension}s/${encodeURIComponent(subject.id)}${qs({ namespace: subject.namespace })}`
  }
}

export const getCallStats = (subject: StatsSubject) => apiFetch<CallStats>(statsPath(subject))

export const getTopFailingTools = (limit = 10) => apiFetch<{ items: FailingTool[] }>(`/api/v1/stats/top-failing-tools${qs({ limit })}`)

export interface CallFilters {
  agentId?: string
  /** `namespace/name`, a name in any namespace, or an id. */
  agent?: string
  tool?: string
  toolKey?: string
  namespace?: string
  outcome?: string
  channel?: string
  from?: string
  to?: string
}

export const listCalls = (filters: CallFilters, limit: number, cursor: string | null) =>
  apiFetch<{ items: ToolCallRow[]; nextCursor: string | null }>(`/api/v1/calls${qs({ ...filters, limit, cursor })}`)
export const getCall = (id: string) => apiFetch<ToolCallDetail>(`/api/v1/calls/${encodeURIComponent(id)}`)
