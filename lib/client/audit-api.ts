// The audit log for the portal: typed fetches, the export link, and which fields an event changed.
import type { z } from 'zod'
import type { auditEventSchema } from '@/lib/api/audit-routes'
import { isObject } from '@/lib/json/unknown-values'
import { apiFetch, qs, type Page } from './api'

export type AuditEvent = z.output<typeof auditEventSchema>

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

export function listAuditEvents(filters: AuditFilters & { limit?: number }, cursor?: string | null) {
  return apiFetch<Page<AuditEvent>>(`/api/v1/audit${qs({ ...filters, cursor: cursor ?? undefined })}`)
}

export function auditExportHref(filters: AuditFilters): string {
  return `/api/v1/audit/export${qs({ ...filters })}`
}

/** Dotted paths (two levels: `spec.description`, `metadata.labels`) whose values differ. */
export function changedPaths(before: unknown, after: unknown, depth = 2, prefix = ''): string[] {
  const same = JSON.stringify(before) === JSON.stringify(after)
  if (same) return []
  if (depth === 0 || !isObject(before) || !isObject(after)) return [prefix || '(all)']
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  return keys.flatMap((k) => changedPaths(before[k], after[k], depth - 1, prefix ? `${prefix}.${k}` : k))
}
