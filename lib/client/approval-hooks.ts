'use client'
// Query hooks of the approval queue. The queue asks again every few seconds, so new requests show
// up without a reload and requests others decided leave.
import { useQuery } from '@tanstack/react-query'
import { type ApprovalFilters, type ApprovalPage, getApprovalStats, listApprovals } from './approvals-api'
import { useCursorPages } from './cursor-pages'
import { queryKeys } from './query-keys'

export const QUEUE_POLL_MS = 3_000

/** `initial`: the first page as the server rendered it and when it read it, so rows are on screen before any fetch. */
export function useApprovalQueue(filters: ApprovalFilters, pageSize = 50, initial?: { page: ApprovalPage; readAt: number }) {
  const pages = useCursorPages({
    queryKey: queryKeys.approvalQueue({ ...filters, pageSize }),
    fetchPage: (cursor) => listApprovals(filters, pageSize, cursor),
    refetchInterval: QUEUE_POLL_MS,
    initial,
  })
  return { ...pages, total: pages.firstPage?.total ?? 0 }
}

/** Requests waiting for a decision, for the navigation: the list's total, from a page of one. */
export function usePendingApprovalCount(): number {
  const query = useQuery({
    queryKey: queryKeys.pendingApprovalCount(),
    queryFn: () => listApprovals({ status: 'pending' }, 1),
    select: (page) => page.total,
    refetchInterval: PENDING_COUNT_POLL_MS,
    // A failed poll keeps the last count rather than flashing it away.
    retry: false,
  })
  return query.data ?? 0
}

export const PENDING_COUNT_POLL_MS = 15_000

export function useApprovalStats() {
  return useQuery({ queryKey: queryKeys.approvalStats(), queryFn: getApprovalStats, refetchInterval: QUEUE_POLL_MS * 5 })
}
