'use client'
// The card every resource list page uses: filters on top, then the loading, error or empty state of
// the list query, or its table with "Load more" beneath.
import { IntentLink } from '@/components/ui/intent-link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { PagedList } from '@/components/ui/paged-list'
import { SearchInput } from '@/components/ui/search-input'
import { EmptyState } from '@/components/ui/states'
import { type SortDirection, Table, TBody, Th, THead, Tr } from '@/components/ui/table'
import type { Plural } from '@/lib/client/api'
import { useResourceList, type ResourceList } from '@/lib/client/hooks'
import { useUrlFilters } from '@/lib/client/use-url-filters'

/**
 * A header cell: its label, or the label with classes for the column (`text-right` for numbers) and
 * the order it sorts the list by (the API's `sort`, read on the server across every page).
 */
export type Column = string | { label: string; className?: string; sort?: SortKey }
type SortKey = 'name' | 'namespace' | 'updated'

/** The sort a list is in (`''` is the API's default, namespace then name) and how to change it. */
export interface SortState {
  value: string
  set: (value: string) => void
}

type RowAttributes = { [data: `data-${string}`]: string | undefined }

/** How the table looks and what it says when empty: everything but the query and its filters. */
export interface ResourceTable<T> {
  loadingLabel: string
  /** Empty-state titles with and without filters; the hint shows only when nothing is filtered. */
  empty: { filtered: string; unfiltered: string; hint?: React.ReactNode }
  columns: readonly Column[]
  /** The cells of one item's row. */
  renderRow: (item: T) => React.ReactNode
  /** Extra `data-*` attributes of one item's row, for tests to find it. */
  rowAttributes?: (item: T) => RowAttributes
}

/** The empty state's hint for kinds that are created from a manifest on the Apply page. */
export function ApplyHint({ kind, verb = 'Register' }: { kind: string; verb?: string }) {
  return (
    <>
      {verb} one with a <code className="font-mono">kind: {kind}</code> manifest on the{' '}
      <IntentLink href="/apply" className="underline">
        Apply
      </IntentLink>{' '}
      page.
    </>
  )
}

export function ResourceListCard<T extends { id: string }>({
  list,
  filters,
  filterState,
  loadingLabel,
  empty,
  columns,
  renderRow,
  rowAttributes,
  sort,
}: ResourceTable<T> & {
  list: ResourceList<T>
  /** The filter bar's fields. */
  filters: React.ReactNode
  /** From `useUrlFilters`: whether any filter is set (offers "Reset filters", picks the empty title). */
  filterState: { active: boolean; reset: () => void }
  sort?: SortState
}) {
  const filtered = filterState.active
  return (
    <Card bodyClassName="">
      <FilterBar onReset={filtered ? filterState.reset : undefined}>{filters}</FilterBar>
      <PagedList
        list={list}
        loadingLabel={loadingLabel}
        empty={<EmptyState title={filtered ? empty.filtered : empty.unfiltered}>{!filtered && empty.hint}</EmptyState>}
      >
        {(items) => (
          <Table>
            <THead>
              <tr>
                {columns.map((c) =>
                  typeof c === 'string' ? (
                    <Th key={c}>{c}</Th>
                  ) : (
                    <Th key={c.label} className={c.className} sort={c.sort && sort ? sortControl(c.sort, c.label, sort) : undefined}>
                      {c.label}
                    </Th>
                  ),
                )}
              </tr>
            </THead>
            <TBody>
              {items.map((item) => (
                <Tr key={item.id} {...rowAttributes?.(item)} className="hover:bg-slate-50">
                  {renderRow(item)}
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </PagedList>
    </Card>
  )
}

/** The header's part in sorting: which way this column sorts now, and a click that sorts by it (again: the other way). */
function sortControl(key: SortKey, label: string, sort: SortState): { direction?: SortDirection; onSort: () => void; label: string } {
  const current = sort.value || 'namespace'
  const direction: SortDirection | undefined = current === key ? 'asc' : current === `-${key}` ? 'desc' : undefined
  const next = direction === 'asc' ? `-${key}` : key
  return { direction, label, onSort: () => sort.set(next === 'namespace' ? '' : next) }
}

const NAMESPACE_SEARCH_KEYS = ['namespace', 'q', 'sort'] as const
/** The URL filters a page hands to a `NamespaceSearchList`. */
export type NamespaceSearchFilters = Partial<Record<(typeof NAMESPACE_SEARCH_KEYS)[number], string>>

/** A list filtered only by namespace and a name search, both kept in the URL. */
export function NamespaceSearchList<T extends { id: string }>({
  plural,
  initial,
  searchPlaceholder,
  ...table
}: ResourceTable<T> & { plural: Plural; initial: NamespaceSearchFilters; searchPlaceholder: string }) {
  const filterState = useUrlFilters(NAMESPACE_SEARCH_KEYS, initial)
  const { filters, set } = filterState
  const list = useResourceList<T>(plural, { namespace: filters.namespace, q: filters.q, sort: filters.sort || undefined })
  return (
    <ResourceListCard
      list={list}
      filterState={{ active: Boolean(filters.namespace || filters.q), reset: filterState.reset }}
      sort={{ value: filters.sort, set: (v) => set('sort', v) }}
      filters={
        <>
          <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
          <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder={searchPlaceholder} />
        </>
      }
      {...table}
    />
  )
}
