'use client'
import { Card } from '@/components/ui/card'
import { PagedList } from '@/components/ui/paged-list'
import { EmptyState } from '@/components/ui/states'
import type { DiscoveryFilters } from '@/lib/client/api'
import { useDiscoveryRuns } from '@/lib/client/hooks'
import { DiscoveryRunsTable } from './discovery-runs-table'

/** What the discovery lists (runs, surface changes) take: which items, and what to say when there are none. */
export interface DiscoveryListProps {
  filters: DiscoveryFilters
  showSubject?: boolean
  emptyTitle: string
  emptyHint?: React.ReactNode
  pageSize?: number
}

/** The runs list with its loading, error and empty states and "Load more"; no card around it. */
export function DiscoveryRunsList({ filters, showSubject = false, emptyTitle, emptyHint, pageSize = 10 }: DiscoveryListProps) {
  const list = useDiscoveryRuns(filters, pageSize)
  return (
    <PagedList list={list} loadingLabel="Loading runs…" empty={<EmptyState title={emptyTitle}>{emptyHint}</EmptyState>}>
      {(runs) => <DiscoveryRunsTable runs={runs} showSubject={showSubject} />}
    </PagedList>
  )
}

/** Recent discovery runs of one subject. */
export function DiscoveryRunsCard({
  filters,
  title = 'Recent runs',
  description,
}: {
  filters: DiscoveryFilters
  title?: string
  description?: React.ReactNode
}) {
  return (
    <Card id="discovery-runs" title={title} description={description ?? 'Newest first. Click a run for its endpoint, timings and full error.'} bodyClassName="">
      <DiscoveryRunsList filters={filters} emptyTitle="No discovery runs yet" emptyHint="Use “Refresh now” to run one." />
    </Card>
  )
}
