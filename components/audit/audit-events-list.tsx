'use client'
import { LoadMore } from '@/components/ui/load-more'
import { EmptyState, QueryView } from '@/components/ui/states'
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
    <QueryView
      query={list}
      loadingLabel="Loading the audit log…"
      isEmpty={() => list.items.length === 0}
      empty={<EmptyState title={emptyTitle}>{emptyHint}</EmptyState>}
    >
      {() => (
        <>
          <AuditEventsTable events={list.items} showTarget={showTarget} />
          <LoadMore
            hasNextPage={list.hasNextPage}
            isFetchingNextPage={list.isFetchingNextPage}
            onLoadMore={() => void list.fetchNextPage()}
            shown={list.items.length}
          />
        </>
      )}
    </QueryView>
  )
}
