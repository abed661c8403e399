'use client'
// Every cursor-paged list of the portal ("Load more") asks for its pages the same way: the first
// page without a cursor, each next one with the cursor the previous page returned, until it is null.
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query'
import { useMemo } from 'react'

export interface CursorPage<T> {
  items: T[]
  nextCursor: string | null
}

interface CursorPagesOptions<P> {
  queryKey: QueryKey
  fetchPage: (cursor: string | null) => Promise<P>
  /** A fixed interval, or one chosen from the pages loaded so far (false: don't ask again). */
  refetchInterval?: number | ((pages: P[]) => number | false)
  /** The first page as the server rendered it and when it read it, so rows are on screen before any fetch. */
  initial?: { page: P; readAt: number }
}

/** The pages of a list, with `items` of every page loaded so far and `firstPage` for its totals. */
export function useCursorPages<P extends CursorPage<unknown>>({ queryKey, fetchPage, refetchInterval, initial }: CursorPagesOptions<P>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    ...(initial ? { initialData: { pages: [initial.page], pageParams: [null] }, initialDataUpdatedAt: initial.readAt } : {}),
    refetchInterval: typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data?.pages ?? []) : refetchInterval,
  })
  const pages = query.data?.pages
  // The same array while the pages are the same (a list's memoised parts depend on it).
  const items = useMemo(() => (pages ?? []).flatMap((p) => p.items) as P['items'], [pages])
  return { ...query, items, firstPage: pages?.[0] as P | undefined }
}
