'use client'
// Query hooks shared by the portal's pages.
import { useQuery } from '@tanstack/react-query'
import { getResource, listAll, listDiscoveryRuns, listResources, listSurfaceChanges, type DiscoveryFilters, type ListParams, type Plural } from './api'
import { useCursorPages } from './cursor-pages'
import { queryKeys } from './query-keys'

/** A cursor-paged list: `items` of every page loaded so far, and `fetchNextPage` for "Load more". */
export function useResourceList<T>(plural: Plural, params: ListParams, pageSize = 50) {
  const query = { ...params, limit: pageSize }
  return useCursorPages({ queryKey: queryKeys.list(plural, query), fetchPage: (cursor) => listResources<T>(plural, query, cursor) })
}

export function useAllResources<T>(plural: Plural, params: ListParams = {}, enabled = true) {
  return useQuery({ queryKey: queryKeys.listAll(plural, params), queryFn: () => listAll<T>(plural, params), enabled })
}

export function useResource<T>(plural: Plural, id: string, namespace?: string) {
  return useQuery({ queryKey: queryKeys.detail(plural, id, namespace), queryFn: () => getResource<T>(plural, id, namespace) })
}

/** What `useResourceList` returns, for components that render such a list. */
export type ResourceList<T> = ReturnType<typeof useResourceList<T>>

/** How often lists with a run still going are asked again, so it is seen to finish. */
const RUNNING_POLL_MS = 2_000

/** Discovery runs, newest first, with "Load more"; asked again every 2 s while one of them is running. */
export function useDiscoveryRuns(filters: DiscoveryFilters, pageSize = 20) {
  const params = { ...filters, limit: pageSize }
  return useCursorPages({
    queryKey: queryKeys.discoveryRuns(params),
    fetchPage: (cursor) => listDiscoveryRuns(params, cursor),
    refetchInterval: (pages) => (pages.some((p) => p.items.some((r) => r.status === 'running')) ? RUNNING_POLL_MS : false),
  })
}

/** Surface changes, newest first, with "Load more". */
export function useSurfaceChanges(filters: DiscoveryFilters, pageSize = 20) {
  const params = { ...filters, limit: pageSize }
  return useCursorPages({ queryKey: queryKeys.surfaceChanges(params), fetchPage: (cursor) => listSurfaceChanges(params, cursor) })
}
