'use client'
// The audit log's paged query.
import { type AuditFilters, listAuditEvents } from './audit-api'
import { useCursorPages } from './cursor-pages'
import { queryKeys } from './query-keys'

export function useAuditEvents(filters: AuditFilters, pageSize = 50) {
  const params = { ...filters, limit: pageSize }
  return useCursorPages({ queryKey: queryKeys.audit(params), fetchPage: (cursor) => listAuditEvents(params, cursor) })
}
