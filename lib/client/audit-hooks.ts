'use client'
// The audit log's paged query.
import { useInfiniteQuery } from '@tanstack/react-query'
import { type AuditFilters, listAuditEvents } from './audit-api'
import { queryKeys } from './query-keys'

export function useAuditEvents(filters: AuditFilters, pageSize = 50) {
  const params = { ...filters, limit: pageSize }
  const query = useInfiniteQuery({
    queryKey: queryKeys.audit(params),
    queryFn: ({ pageParam }) => listAuditEvents(params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) ?? [] }
}
