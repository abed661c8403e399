// Typed fetches of the statistics and calls API (lib/api/stats-routes.ts).
import type { z } from 'zod'
import type {
  callsByPersonSchema,
  callStatsSchema,
  failingToolSchema,
  STATS_CONTRACTS,
  toolCallDetail,
  toolCallRow,
  toolFailuresSchema,
} from '@/lib/api/stats-routes'
import { type AnswerOf, apiFetch, type QueryParamsOf, qs } from './api'

export type CallStats = z.output<typeof callStatsSchema>
export type FailingTool = z.output<typeof failingToolSchema>
export type ToolCallRow = z.output<typeof toolCallRow>
export type ToolCallDetail = z.output<typeof toolCallDetail>
export type ToolFailures = z.output<typeof toolFailuresSchema>
/** `tool` is a Tool resource (its own calls); `resolvedTool` any resolved tool by its stat key. */
export type StatsSubject =
  | { dimension: 'all' }
  | { dimension: 'tool' | 'agent' | 'unit'; id: string; namespace?: string }
  | { dimension: 'resolvedTool'; key: string }
  | { dimension: 'namespace'; namespace: string }

function statsPath(subject: StatsSubject): string {
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

export const getToolFailures = (key: string) => apiFetch<ToolFailures>(`/api/v1/stats/tool-failures${qs({ key })}`)

export type CallsByPerson = z.output<typeof callsByPersonSchema>
export const getCallsByPerson = (limit = 20, issuer?: string) => apiFetch<CallsByPerson>(`/api/v1/stats/people${qs({ limit, issuer })}`)

export const getTopFailingTools = (limit = 10) => apiFetch<AnswerOf<typeof STATS_CONTRACTS.topFailing>>(`/api/v1/stats/top-failing-tools${qs({ limit })}`)

/** The calls explorer's filters: the calls route's query but its page. */
export type CallFilters = QueryParamsOf<typeof STATS_CONTRACTS.calls, 'limit' | 'cursor'>

export const listCalls = (filters: CallFilters, limit: number, cursor: string | null) =>
  apiFetch<AnswerOf<typeof STATS_CONTRACTS.calls>>(`/api/v1/calls${qs({ ...filters, limit, cursor })}`)
export const getCall = (id: string) => apiFetch<ToolCallDetail>(`/api/v1/calls/${encodeURIComponent(id)}`)
