'use client'
// The approver's queue: pending calls oldest first with the arguments that matter in every row, a
// detail panel for the one in focus, decisions one by one or in bulk, all by keyboard as well as by
// mouse. Approving a high-risk call asks first; a bulk decision lists what it covers. The list asks
// again every few seconds and says so when it cannot. On a phone the decision bar stays on screen.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCan } from '@/components/access/caller-context'
import { useCallback, useMemo, useRef, useState } from 'react'
import { LEVELS } from '@/components/tools/badges'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { DecisionComment } from '@/components/ui/decision-comment'
import { FilterBar } from '@/components/ui/filter-bar'
import { Form } from '@/components/ui/form'
import { LoadMore } from '@/components/ui/load-more'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import { LocalDateTime, TimeAgo } from '@/components/ui/time'
import { ApiError } from '@/lib/client/api'
import { QUEUE_POLL_MS, useApprovalQueue } from '@/lib/client/approval-hooks'
import {
  APPROVAL_PAGE_SIZE,
  type ApprovalPage,
  type ApprovalStatus,
  type ApprovalView,
  decideApproval,
  decideApprovals,
  type Decision,
  getApproval,
} from '@/lib/client/approvals-api'
import { RenderedAtProvider } from '@/lib/client/clock'
import { count, dateTime, humanize, timeAgo } from '@/lib/client/format'
import { queryKeys } from '@/lib/client/query-keys'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { ApprovalDetail } from './approval-detail'
import { ApprovalRow } from './approval-row'
import { ArgumentSummary } from './argument-summary'
import { BulkPanel } from './bulk-panel'
import { useQueueKeyboard } from './use-queue-keyboard'

const KEYS = ['status', 'level', 'agent', 'tool', 'namespace'] as const
export type ApprovalPageFilters = Partial<Record<(typeof KEYS)[number], string>>
const STATUSES: ApprovalStatus[] = ['pending', 'approved', 'denied', 'expired']
const LEVEL_OPTIONS = LEVELS.map((l) => ({ value: l, label: humanize(l) }))

interface Notice {
  tone: 'success' | 'conflict' | 'error'
  text: string
}

/** The loser of a race is told who decided, when and why, in words rather than the API's ids and ISO times. */
async function whoDecided(id: string, fallback: string): Promise<string> {
  const a = await getApproval(id).catch(() => null)
  if (!a) return fallback
  if (a.status === 'expired') return `${a.tool.id} for ${a.agent.name} expired ${timeAgo(a.expiresAt)} and can no longer be decided.`
  if (!a.decision?.at) return fallback
  const why = a.decision.comment ? `: “${a.decision.comment}”` : ''
  return `Already ${a.status}: ${a.tool.id} for ${a.agent.name} was ${a.status} by ${a.decision.by ?? 'someone else'} at ${dateTime(a.decision.at)} (${timeAgo(a.decision.at)})${why}.`
}

/** `renderedAt`: when the server rendered `initialPage`, so time labels hydrate as they were rendered. */
export function ApprovalQueue({ initial, initialPage, renderedAt }: { initial: ApprovalPageFilters; initialPage?: ApprovalPage; renderedAt: number }) {
  return (
    <RenderedAtProvider at={renderedAt}>
      <Queue initial={initial} initialPage={initialPage} renderedAt={renderedAt} />
    </RenderedAtProvider>
  )
}

function Queue({ initial, initialPage, renderedAt }: { initial: ApprovalPageFilters; initialPage?: ApprovalPage; renderedAt: number }) {
  const canDecide = useCan('approve')
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const status = (STATUSES as string[]).includes(filters.status) ? (filters.status as ApprovalStatus) : 'pending'
  const queueFilters = { status, level: filters.level, agent: filters.agent, tool: filters.tool, namespace: filters.namespace }
  // The server's first page only stands for the filters it was rendered with.
  const unchanged = KEYS.every((k) => (initial[k] ?? '') === filters[k])
  const queue = useApprovalQueue(queueFilters, APPROVAL_PAGE_SIZE, unchanged && initialPage ? { page: initialPage, readAt: renderedAt } : undefined)
  const client = useQueryClient()
  const list = useRef<HTMLUListElement>(null)
  const [focusId, setFocusId] = useState<string | null>(null)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [comment, setComment] = useState('')
  const [notice, setNotice] = useState<Notice | null>(null)
  // A high-risk approval waiting for its second yes: the requests it covers, fixed when it was asked.
  const [confirming, setConfirming] = useState<{ covered: ApprovalView[]; bulk: boolean } | null>(null)

  const items = queue.items
  const focusIndex = Math.max(
    0,
    items.findIndex((a) => a.id === focusId),
  )
  const focused: ApprovalView | undefined = items[focusIndex]
  const pendingView = status === 'pending'
  // Selections of requests that left the list (decided elsewhere) are dropped.
  const selectedItems = useMemo(() => items.filter((a) => selected.has(a.id)), [items, selected])
  const selectedIds = selectedItems.map((a) => a.id)
  const deciding = pendingView && canDecide && (focused !== undefined || selectedIds.length > 0)
  // A poll that failed leaves the rows as they were: say so, and since when. Offline, TanStack Query
  // pauses the poll instead of failing it, which leaves the rows just as old.
  const offline = queue.fetchStatus === 'paused'
  const stale = queue.data !== undefined && (queue.isRefetchError || queue.failureCount > 0 || offline)

  const settle = () => void client.invalidateQueries({ queryKey: queryKeys.approvals() })
  const decideOne = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) => decideApproval(id, decision, comment.trim() || undefined),
    onSuccess: (a, { decision }) => {
      setNotice({
        tone: 'success',
        text: `${decision === 'approve' ? 'Approved' : 'Denied'} ${a.tool.id} for ${a.agent.name}.${decision === 'approve' ? ' A worker runs it now.' : ''}`,
      })
      setComment('')
      const next = items[focusIndex + 1] ?? items[focusIndex - 1]
      setFocusId(next && next.id !== a.id ? next.id : null)
    },
    onError: async (e, { id }) => {
      if (!(e instanceof ApiError && e.status === 409)) return setNotice({ tone: 'error', text: (e as Error).message })
      setNotice({ tone: 'conflict', text: await whoDecided(id, e.message) })
    },
    onSettled: settle,
  })
  const decideBulk = useMutation({
    mutationFn: ({ ids, decision }: { ids: string[]; decision: Decision }) => decideApprovals(ids, decision, comment.trim() || undefined),
    onSuccess: ({ results }, { decision }) => {
      const ok = results.filter((r) => r.ok).length
      const failed = results.filter((r) => !r.ok)
      setNotice({
        tone: failed.length ? 'conflict' : 'success',
        text: `${decision === 'approve' ? 'Approved' : 'Denied'} ${ok} of ${results.length}.${failed.length ? ` Not decided: ${failed.map((f) => f.error).join('; ')}` : ''}`,
      })
      setSelected(new Set())
      setComment('')
    },
    onError: (e) => setNotice({ tone: 'error', text: (e as Error).message }),
    onSettled: settle,
  })
  const busy = decideOne.isPending || decideBulk.isPending

  /** Sends the decision for `covered` (the selection, else the request in focus); high-risk approvals ask first. */
  function send(decision: Decision, covered: ApprovalView[], bulk: boolean) {
    if (covered.length === 0) return
    if (bulk) decideBulk.mutate({ ids: covered.map((a) => a.id), decision })
    else decideOne.mutate({ id: covered[0].id, decision })
  }
  function decide(decision: Decision) {
    if (!canDecide || !pendingView || busy || confirming) return
    const bulk = selectedItems.length > 0
    const covered = bulk ? selectedItems : focused ? [focused] : []
    if (decision === 'approve' && covered.some((a) => a.highRisk)) return setConfirming({ covered, bulk })
    send(decision, covered, bulk)
  }
  const focusRow = useCallback((id: string) => {
    setFocusId(id)
    // The list keeps the keyboard after a click, so j/k, x and Space carry on from the row clicked.
    list.current?.focus({ preventScroll: true })
  }, [])
  const moveTo = (index: number) => {
    const next = items[Math.min(items.length - 1, Math.max(0, index))]
    if (next) {
      setFocusId(next.id)
      document.getElementById(`approval-${next.id}`)?.scrollIntoView({ block: 'nearest' })
    }
  }
  const toggle = useCallback(
    (id: string) =>
      setSelected((s) => {
        const n = new Set(s)
        if (n.has(id)) n.delete(id)
        else n.add(id)
        return n
      }),
    [],
  )
  useQueueKeyboard(
    {
      next: () => moveTo(focusIndex + 1),
      previous: () => moveTo(focusIndex - 1),
      first: () => moveTo(0),
      last: () => moveTo(items.length - 1),
      approve: () => decide('approve'),
      deny: () => decide('deny'),
      toggleSelect: () => pendingView && canDecide && focused && toggle(focused.id),
    },
    list,
  )

  const approveLabel = selectedIds.length > 0 ? `Approve ${selectedIds.length}` : 'Approve'
  const denyLabel = selectedIds.length > 0 ? `Deny ${selectedIds.length}` : 'Deny'

  return (
    <div className={`space-y-3 ${deciding ? 'pb-36 lg:pb-0' : ''}`}>
      <Card bodyClassName="">
        <div className="flex flex-wrap items-center gap-1 border-b border-slate-200 px-3 pt-2" role="tablist" aria-label="Status">
          {STATUSES.map((s) => (
            <button
              key={s}
              role="tab"
              aria-selected={s === status}
              onClick={() => {
                set('status', s === 'pending' ? '' : s)
                setSelected(new Set())
              }}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium capitalize ${s === status ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-800'}`}
            >
              {s}
              {s === status && (
                <span className="ml-1.5 rounded bg-slate-100 px-1.5 text-xs tabular-nums text-slate-700" data-testid="queue-total">
                  {count(queue.total)}
                </span>
              )}
            </button>
          ))}
        </div>
        <FilterBar onReset={active ? reset : undefined}>
          <Select label="Side-effect level" value={filters.level} onChange={(v) => set('level', v)} options={LEVEL_OPTIONS} />
          <SearchInput label="Agent" value={filters.agent} onChange={(v) => set('agent', v.trim())} placeholder="namespace/name" className="w-44" />
          <SearchInput label="Tool" value={filters.tool} onChange={(v) => set('tool', v)} placeholder="payments.refund" className="w-48" />
          <SearchInput label="Tool namespace" value={filters.namespace} onChange={(v) => set('namespace', v)} placeholder="payments" className="w-36" />
        </FilterBar>
      </Card>

      {stale && (
        <div role="status" data-testid="queue-stale" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <strong>Stale:</strong> the queue could not be refreshed
          {queue.error ? ` (${(queue.error as Error).message})` : offline ? ' (this browser is offline)' : ''}. Last updated{' '}
          <LocalDateTime iso={new Date(queue.dataUpdatedAt).toISOString()} /> (<TimeAgo iso={new Date(queue.dataUpdatedAt).toISOString()} />
          ); decided or new requests may be missing. Trying again every {QUEUE_POLL_MS / 1000} s.
        </div>
      )}

      {notice && (
        <div
          role={notice.tone === 'success' ? 'status' : 'alert'}
          className={`rounded-md border px-3 py-2 text-sm ${notice.tone === 'success' ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : notice.tone === 'conflict' ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-red-200 bg-red-50 text-red-900'}`}
        >
          {notice.text}
        </div>
      )}

      <div className="grid gap-3 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <Card
          bodyClassName=""
          title={pendingView ? 'Waiting, oldest first' : `${status[0].toUpperCase()}${status.slice(1)}, newest first`}
          description={pendingView && canDecide ? 'j/k or ↑/↓ move · a approve · d deny · x select for a bulk decision' : undefined}
        >
          {queue.isPending ? (
            <LoadingState label="Loading the queue…" />
          ) : queue.isLoadingError ? (
            <ErrorState error={queue.error} onRetry={() => void queue.refetch()} />
          ) : items.length === 0 ? (
            <EmptyState title={active ? 'Nothing matches these filters' : pendingView ? 'Nothing is waiting for a decision' : `No ${status} requests`}>
              {pendingView && !active ? 'Calls of tools that need approval appear here as agents make them.' : null}
            </EmptyState>
          ) : (
            <>
              <ul
                ref={list}
                role="listbox"
                tabIndex={0}
                aria-label="Approval requests"
                aria-activedescendant={focused ? `approval-${focused.id}` : undefined}
                className="divide-y divide-slate-100 lg:max-h-[36rem] lg:overflow-y-auto"
              >
                {items.map((a) => (
                  <ApprovalRow
                    key={a.id}
                    approval={a}
                    focused={a.id === focused?.id}
                    selectable={pendingView && canDecide}
                    selected={selected.has(a.id)}
                    pendingView={pendingView}
                    onFocus={focusRow}
                    onToggle={toggle}
                  />
                ))}
              </ul>
              <LoadMore
                hasNextPage={queue.hasNextPage}
                isFetchingNextPage={queue.isFetchingNextPage}
                onLoadMore={() => void queue.fetchNextPage()}
                shown={items.length}
              />
            </>
          )}
        </Card>

        <Card title={selectedIds.length > 0 ? `${selectedIds.length} selected` : 'Request'}>
          {selectedIds.length === 0 && !focused ? (
            <EmptyState title="Pick a request to see it in full" />
          ) : (
            <div className="space-y-4">
              {selectedIds.length === 0 && focused && <ApprovalDetail approval={focused} />}
              {selectedIds.length > 0 && <BulkPanel selected={selectedItems} onUnselect={toggle} onClear={() => setSelected(new Set())} />}
              {deciding && (
                <Form className="space-y-2 border-t border-slate-200 pt-3" aria-label="Decision">
                  <DecisionComment value={comment} onChange={setComment} keptWith="with the decision in the call's record and the audit log" />
                  <div className="flex gap-2">
                    <Button variant="primary" onClick={() => decide('approve')} disabled={busy}>
                      {approveLabel}
                    </Button>
                    <Button onClick={() => decide('deny')} disabled={busy} className="text-red-800 hover:bg-red-50">
                      {denyLabel}
                    </Button>
                  </div>
                </Form>
              )}
              {pendingView && !canDecide && <p className="text-xs text-slate-600">Deciding needs the approver role.</p>}
            </div>
          )}
        </Card>
      </div>

      {deciding && (
        // Below 1024 px the decision stays within reach of the thumb, whichever row is open.
        <div
          data-testid="approval-action-bar"
          className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] lg:hidden"
        >
          {selectedIds.length > 0 ? (
            <p className="text-sm font-medium text-slate-900">One decision for {selectedIds.length} requests</p>
          ) : focused ? (
            <>
              <p className="truncate font-mono text-sm font-medium text-slate-900">{focused.tool.id}</p>
              <ArgumentSummary summary={focused.summary} />
            </>
          ) : null}
          <div className="mt-2 grid grid-cols-2 gap-2">
            <Button variant="primary" onClick={() => decide('approve')} disabled={busy} className="h-10">
              {approveLabel}
            </Button>
            <Button onClick={() => decide('deny')} disabled={busy} className="h-10 text-red-800 hover:bg-red-50">
              {denyLabel}
            </Button>
          </div>
        </div>
      )}

      {confirming && (
        <ConfirmDialog
          testId="approval-confirm"
          title={confirming.covered.length === 1 ? `Approve ${confirming.covered[0].tool.id}?` : `Approve ${confirming.covered.length} requests?`}
          confirmLabel={confirming.covered.length === 1 ? 'Yes, approve' : `Yes, approve ${confirming.covered.length}`}
          busy={busy}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { covered, bulk } = confirming
            setConfirming(null)
            send('approve', covered, bulk)
          }}
        >
          <p>
            {confirming.covered.filter((a) => a.highRisk).length === 1 && confirming.covered.length === 1
              ? `Its level (${humanize(confirming.covered[0].tool.level ?? 'undeclared')}) is marked high-risk: once approved, a worker runs it and it cannot be called back.`
              : `${confirming.covered.filter((a) => a.highRisk).length} of them are at levels marked high-risk: once approved, workers run them and they cannot be called back.`}
          </p>
          <ul className="mt-3 max-h-60 space-y-2 overflow-y-auto">
            {confirming.covered.map((a) => (
              <li key={a.id} className="rounded-md border border-slate-200 p-2">
                <p className="break-all font-mono text-sm">{a.tool.id}</p>
                <ArgumentSummary summary={a.summary} />
                <p className="break-all text-xs text-slate-600">
                  for {a.agent.namespace}/{a.agent.name}
                </p>
              </li>
            ))}
          </ul>
        </ConfirmDialog>
      )}
    </div>
  )
}
