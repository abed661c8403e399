'use client'
// Query hooks of the statistics pages. Stats move once a minute (the rollup), so they are kept fresh
// for 30 s and asked again every minute while shown.
import { useQuery } from '@tanstack/react-query'
import { useCursorPages } from './cursor-pages'
import { queryKeys } from './query-keys'
import { type CallFilters, getCall, getCallsByPerson, getCallStats, getToolFailures, getTopFailingTools, listCalls, type StatsSubject } from './stats-api'

const FRESH_MS = 30_000
const POLL_MS = 60_000

export const useCallStats = (subject: StatsSubject) =>
  useQuery({ queryKey: queryKeys.callStats(subject), queryFn: () => getCallStats(subject), staleTime: FRESH_MS, refetchInterval: POLL_MS })

export const useTopFailingTools = (limit = 10) =>
  useQuery({ queryKey: queryKeys.topFailingTools(limit), queryFn: () => getTopFailingTools(limit), staleTime: FRESH_MS, refetchInterval: POLL_MS })

export const useCallsByPerson = (limit = 20, issuer?: string) =>
  useQuery({
    queryKey: queryKeys.callsByPerson(limit, issuer),
    queryFn: () => getCallsByPerson(limit, issuer),
    staleTime: FRESH_MS,
    refetchInterval: POLL_MS,
  })

export const useToolFailures = (key: string) =>
  useQuery({ queryKey: queryKeys.toolFailures(key), queryFn: () => getToolFailures(key), staleTime: FRESH_MS, refetchInterval: POLL_MS })

export function useCalls(filters: CallFilters, pageSize = 50) {
  return useCursorPages({ queryKey: queryKeys.calls({ ...filters, limit: pageSize }), fetchPage: (cursor) => listCalls(filters, pageSize, cursor) })
}

export const useCall = (id: string | null) => useQuery({ queryKey: queryKeys.call(id ?? ''), queryFn: () => getCall(id!), enabled: Boolean(id) })
