'use client'
import { PagedList } from '@/components/ui/paged-list'
import { EmptyState } from '@/components/ui/states'
import type { AuditFilters } from '@/lib/client/audit-api'
import { useAuditEvents } from '@/lib/client/audit-hooks'
import { AuditEventsTable } from './audit-events-table'

/** Audit events for some filters, with loading, error and empty states and "Load more". */
export function AuditEventsList({
  filters,
  showTarget = true,
  pageSize = 50,
  emptyTitle,
  emptyHint,
}: {
  filters: AuditFilters
  showTarget?: boolean
  pageSize?: number
  emptyTitle: string
  emptyHint?: React.ReactNode
}) {
  const list = useAuditEvents(filters, pageSize)
  return (
    <PagedList list={list} loadingLabel="Loading the audit log…" empty={<EmptyState title={emptyTitle}>{emptyHint}</EmptyState>}>
      {(events) => <AuditEventsTable events={events} showTarget={showTarget} />}
    </PagedList>
  )
}
