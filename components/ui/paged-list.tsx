'use client'
import type { UseQueryResult } from '@tanstack/react-query'
import { LoadMore } from './load-more'
import { QueryView } from './states'

/** A cursor-paged list query (the `use…` list hooks): every item loaded so far, and how to load the next page. */
export type PagedQuery<T> = Pick<UseQueryResult<unknown>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'> & {
  items: T[]
  hasNextPage: boolean
  isFetchingNextPage: boolean
  fetchNextPage: () => unknown
}

/** The loading, error or empty state of a paged list, or its items with "Load more" beneath. */
export function PagedList<T>({
  list,
  loadingLabel,
  empty,
  errorTitle,
  footerWhenComplete = true,
  children,
}: {
  list: PagedQuery<T>
  loadingLabel?: string
  /** What stands in for the list when it has no items. */
  empty: React.ReactNode
  errorTitle?: string
  /** `false` drops the "N shown" footer once every item is loaded, for a card whose title counts them already. */
  footerWhenComplete?: boolean
  /** The items loaded so far, as a table or a list. */
  children: (items: T[]) => React.ReactNode
}) {
  return (
    <QueryView query={list} loadingLabel={loadingLabel} errorTitle={errorTitle} isEmpty={() => list.items.length === 0} empty={empty}>
      {() => (
        <>
          {children(list.items)}
          {(footerWhenComplete || list.hasNextPage) && (
            <LoadMore
              hasNextPage={list.hasNextPage}
              isFetchingNextPage={list.isFetchingNextPage}
              onLoadMore={() => void list.fetchNextPage()}
              shown={list.items.length}
            />
          )}
        </>
      )}
    </QueryView>
  )
}
