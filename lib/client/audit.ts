'use client'
// The audit log for the portal: typed fetches, the export link and the paged query.
import { useInfiniteQuery } from '@tanstack/react-query'
import type { AuditEventView as AuditEvent } from '@/lib/audit/list-audit-events'
import { isObject } from '@/lib/json/unknown-values'
import { apiFetch, qs, type Page } from './api'
import { queryKeys } from './query-keys'

export type { AuditEvent }

export interface AuditFilters {
  actor?: string
  action?: string
  kind?: string
  namespace?: string
  resource?: string
  resourceId?: string
  /** ISO date-times or dates, as the API takes them. */
  from?: string
  to?: string
}

export const auditKey = (filters: AuditFilters & { limit?: number }) => [...queryKeys.all, 'audit', filters] as const

export function listAuditEvents(filters: AuditFilters & { limit?: number }, cursor?: string | null) {
  return apiFetch<Page<AuditEvent>>(`/api/v1/audit${qs({ ...filters, cursor: cursor ?? undefined })}`)
}

export function auditExportHref(filters: AuditFilters): string {
  return `/api/v1/audit/export${qs({ ...filters })}`
}

export function useAuditEvents(filters: AuditFilters, pageSize = 50) {
  const params = { ...filters, limit: pageSize }
  const query = useInfiniteQuery({
    queryKey: auditKey(params),
    queryFn: ({ pageParam }) => listAuditEvents(params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) ?? [] }
}

/** Dotted paths (two levels: `spec.description`, `metadata.labels`) whose values differ. */
export function changedPaths(before: unknown, after: unknown, depth = 2, prefix = ''): string[] {
  const same = JSON.stringify(before) === JSON.stringify(after)
  if (same) return []
  if (depth === 0 || !isObject(before) || !isObject(after)) return [prefix || '(all)']
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  return keys.flatMap((k) => changedPaths(before[k], after[k], depth - 1, prefix ? `${prefix}.${k}` : k))
}
