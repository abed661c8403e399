'use client'
// The approver's queue: pending calls oldest first with the arguments that matter in every row, a
// detail panel for the one in focus, decisions one by one or in bulk, all by keyboard as well as by
// mouse. Deciding a high-risk call asks first (a denial with its reason; on a touch screen the
// confirming button must be held); a bulk decision lists what it covers. After a decision nothing
// decidable takes its place until the person picks the next request, and the decision can be undone
// until it takes effect (docs/design/approvals.md#deciding-on-purpose). The list asks again every few
// seconds and says so when it cannot. On a phone the decision bar stays on screen.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCan } from '@/components/access/caller-context'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LEVELS, LevelBadge } from '@/components/tools/badges'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { DecisionComment } from '@/components/ui/decision-comment'
import { FilterBar } from '@/components/ui/filter-bar'
import { Form } from '@/components/ui/form'
import { LoadMore } from '@/components/ui/load-more'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, TextArea } from '@/components/ui/form'
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
  undoApproval,
} from '@/lib/client/approvals-api'
import { RenderedAtProvider } from '@/lib/client/clock'
import { count, dateTime, humanize, timeAgo } from '@/lib/client/format'
import { queryKeys } from '@/lib/client/query-keys'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { ApprovalDetail } from './approval-detail'
import { ApprovalRow } from './approval-row'
import { ArgumentSummary, HighRiskTag, PolicyReasons, SummaryLine } from './argument-summary'
import { BulkPanel } from './bulk-panel'
import { useQueueKeyboard } from './use-queue-keyboard'

const KEYS = ['status', 'level', 'agent', 'tool', 'namespace'] as const
export type ApprovalPageFilters = Partial<Record<(typeof KEYS)[number], string>>
const STATUSES: ApprovalStatus[] = ['pending', 'approved', 'denied', 'expired']
const LEVEL_OPTIONS = LEVELS.map((l) => ({ value: l, label: humanize(l) }))

interface Notice {
  tone: 'success' | 'conflict' | 'error'
  text: string
  /** Decisions that can still be taken back, until `until` (ms): the notice offers Undo till then. */
  undo?: { ids: string[]; until: number }
}

/** The decisions of `approvals` that can still be undone, and until when (the latest of them). */
function undoOf(approvals: ApprovalView[]): Notice['undo'] {
  const open = approvals.filter((a) => a.decision?.effectiveAt && Date.parse(a.decision.effectiveAt) > Date.now())
  if (open.length === 0) return undefined
  return { ids: open.map((a) => a.id), until: Math.max(...open.map((a) => Date.parse(a.decision!.effectiveAt!))) }
}

function runsIn(undo: Notice['undo']): string {
  return undo ? ` It takes effect in ${Math.max(1, Math.round((undo.until - Date.now()) / 1000))} s unless you undo it.` : ''
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
  // Right after a decision: nothing is in focus to decide until the person picks a request again, so
  // a second tap or key press meant for the first request never decides the next one.
  const [awaitingChoice, setAwaitingChoice] = useState(false)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [comment, setComment] = useState('')
  const [notice, setNotice] = useState<Notice | null>(null)
  // A high-risk decision waiting for its second yes: the requests it covers, fixed when it was asked.
  const [confirming, setConfirming] = useState<{ covered: ApprovalView[]; bulk: boolean; decision: Decision } | null>(null)
  // Denying a high-risk call says why: the agent and the record get the reason.
  const [reason, setReason] = useState('')
  // On a phone the requests come first: the filters wait behind a button.
  const [filtersOpen, setFiltersOpen] = useState(false)

  const items = queue.items
  const focusIndex = Math.max(
    0,
    items.findIndex((a) => a.id === focusId),
  )
  const focused: ApprovalView | undefined = awaitingChoice ? undefined : items[focusIndex]
  const pendingView = status === 'pending'
  // Selections of requests that left the list (decided elsewhere) are dropped.
  const selectedItems = useMemo(() => items.filter((a) => selected.has(a.id)), [items, selected])
  const selectedIds = selectedItems.map((a) => a.id)
  const deciding = pendingView && canDecide && (focused !== undefined || selectedIds.length > 0)
  const showBar = deciding || (pendingView && canDecide && awaitingChoice && items.length > 0)
  // A poll that failed leaves the rows as they were: say so, and since when. Offline, TanStack Query
  // pauses the poll instead of failing it, which leaves the rows just as old.
  const offline = queue.fetchStatus === 'paused'
  const stale = queue.data !== undefined && (queue.isRefetchError || queue.failureCount > 0 || offline)

  const settle = () => void client.invalidateQueries({ queryKey: queryKeys.approvals() })
  const decideOne = useMutation({
    mutationFn: ({ id, decision, note }: { id: string; decision: Decision; note?: string }) => decideApproval(id, decision, note),
    onSuccess: (a, { decision }) => {
      const undo = undoOf([a])
      setNotice({
        tone: 'success',
        text: `${decision === 'approve' ? 'Approved' : 'Denied'} ${a.tool.id} for ${a.agent.name}.${undo ? runsIn(undo) : decision === 'approve' ? ' A worker runs it now.' : ''}`,
        undo,
      })
      setComment('')
      const index = items.findIndex((i) => i.id === a.id)
      const next = items[index + 1] ?? items[index - 1]
      setFocusId(next && next.id !== a.id ? next.id : null)
      setAwaitingChoice(true)
    },
    onError: async (e, { id }) => {
      if (!(e instanceof ApiError && e.status === 409)) return setNotice({ tone: 'error', text: (e as Error).message })
      setNotice({ tone: 'conflict', text: await whoDecided(id, e.message) })
    },
    onSettled: settle,
  })
  const decideBulk = useMutation({
    mutationFn: ({ ids, decision, note }: { ids: string[]; decision: Decision; note?: string }) => decideApprovals(ids, decision, note),
    onSuccess: ({ results }, { decision }) => {
      const ok = results.filter((r) => r.ok).length
      const failed = results.filter((r) => !r.ok)
      const undo = undoOf(results.flatMap((r) => (r.approval ? [r.approval] : [])))
      setNotice({
        tone: failed.length ? 'conflict' : 'success',
        text: `${decision === 'approve' ? 'Approved' : 'Denied'} ${ok} of ${results.length}.${failed.length ? ` Not decided: ${failed.map((f) => f.error).join('; ')}` : ''}${runsIn(undo)}`,
        undo,
      })
      setSelected(new Set())
      setComment('')
      setAwaitingChoice(true)
    },
    onError: (e) => setNotice({ tone: 'error', text: (e as Error).message }),
    onSettled: settle,
  })
  const undo = useMutation({
    mutationFn: async (ids: string[]) => Promise.allSettled(ids.map((id) => undoApproval(id))),
    onSuccess: (results) => {
      const undone = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []))
      setNotice({
        tone: refused.length ? 'conflict' : 'success',
        text: `${undone.length === 1 ? `Undone: ${undone[0].tool.id} for ${undone[0].agent.name} is waiting again.` : `Undone: ${undone.length} requests are waiting again.`}${refused.length ? ` Not undone: ${refused.join('; ')}` : ''}`,
      })
    },
    onError: (e) => setNotice({ tone: 'error', text: (e as Error).message }),
    onSettled: settle,
  })
  const busy = decideOne.isPending || decideBulk.isPending || undo.isPending
  // The Undo button leaves once the decision took effect.
  const undoUntil = notice?.undo?.until
  useEffect(() => {
    if (undoUntil === undefined) return
    const timer = window.setTimeout(
      () => setNotice((n) => (n?.undo ? { tone: n.tone, text: n.text.replace(/ It takes effect in .*$/, '') } : n)),
      undoUntil - Date.now(),
    )
    return () => window.clearTimeout(timer)
  }, [undoUntil])

  /** Sends the decision for `covered` (the selection, else the request in focus); high-risk ones ask first. */
  function send(decision: Decision, covered: ApprovalView[], bulk: boolean, note = comment.trim() || undefined) {
    if (covered.length === 0) return
    if (bulk) decideBulk.mutate({ ids: covered.map((a) => a.id), decision, note })
    else decideOne.mutate({ id: covered[0].id, decision, note })
  }
  function decide(decision: Decision) {
    if (!canDecide || !pendingView || busy || confirming) return
    const bulk = selectedItems.length > 0
    const covered = bulk ? selectedItems : focused ? [focused] : []
    if (covered.length === 0) return
    if (covered.some((a) => a.highRisk)) {
      setReason(comment)
      return setConfirming({ covered, bulk, decision })
    }
    send(decision, covered, bulk)
  }
  // Counts the focus's moves, so that a page fetched for a move does not undo a later one.
  const focusMoves = useRef(0)
  const focusRow = useCallback((id: string) => {
    focusMoves.current++
    setFocusId(id)
    setAwaitingChoice(false)
    // The list keeps the keyboard after a click, so j/k, x and Space carry on from the row clicked.
    list.current?.focus({ preventScroll: true })
  }, [])
  const moveTo = (index: number) => {
    // Past the last request shown, while more are waiting: the next page is fetched and the focus
    // lands on its first request, so the keyboard walks the whole queue, not only its first page.
    if (index >= items.length && queue.hasNextPage) {
      const movedBefore = focusMoves.current
      if (!queue.isFetchingNextPage)
        void queue.fetchNextPage().then(({ data }) => {
          // A move made while the page was on its way (k, a click) wins over this one.
          if (focusMoves.current !== movedBefore) return
          const loaded = data?.pages.flatMap((p) => p.items) ?? []
          focusOn(loaded[Math.min(index, loaded.length - 1)])
        })
      return
    }
    focusOn(items[Math.min(items.length - 1, Math.max(0, index))])
  }
  const focusOn = (next: ApprovalView | undefined) => {
    if (!next) return
    focusMoves.current++
    setFocusId(next.id)
    setAwaitingChoice(false)
    const row = document.getElementById(`approval-${next.id}`)
    if (row) row.scrollIntoView({ block: 'nearest' })
    else setScrollTo(next.id)
  }
  // A row of a page just fetched is brought into view once it is rendered.
  const [scrollTo, setScrollTo] = useState<string | null>(null)
  useEffect(() => {
    if (scrollTo !== null) document.getElementById(`approval-${scrollTo}`)?.scrollIntoView({ block: 'nearest' })
  }, [scrollTo])
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
      // After a decision the request suggested next is chosen with j, not skipped.
      next: () => moveTo(awaitingChoice ? focusIndex : focusIndex + 1),
      previous: () => moveTo(focusIndex - 1),
      first: () => moveTo(0),
      last: () => moveTo(items.length - 1),
      approve: () => decide('approve'),
      deny: () => decide('deny'),
      toggleSelect: () => pendingView && canDecide && focused && toggle(focused.id),
      moveBy: (delta) => moveTo(focusIndex + delta),
    },
    list,
  )

  const approveLabel = selectedIds.length > 0 ? `Approve ${selectedIds.length}` : 'Approve'
  const denyLabel = selectedIds.length > 0 ? `Deny ${selectedIds.length}` : 'Deny'

  return (
    <div className={`space-y-3 ${showBar ? 'pb-40 lg:pb-0' : ''}`}>
      <Card bodyClassName="">
        <div className="flex items-end justify-between gap-2 border-b border-slate-200 px-3 pt-2">
          <div className="flex flex-wrap items-center gap-1" role="tablist" aria-label="Status">
            {STATUSES.map((s) => (
              <button
                key={s}
                role="tab"
                aria-selected={s === status}
                onClick={() => {
                  set('status', s === 'pending' ? '' : s)
                  setSelected(new Set())
                }}
                className={`-mb-px min-h-11 border-b-2 px-3 py-2 text-sm font-medium capitalize lg:min-h-0 ${s === status ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-800'}`}
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
          <Button
            className="mb-1 h-11 shrink-0 lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls="approval-filters"
            onClick={() => setFiltersOpen((o) => !o)}
            data-testid="approval-filters-toggle"
          >
            Filters{active ? ' (on)' : ''}
          </Button>
        </div>
        <div id="approval-filters" className={filtersOpen ? '' : 'hidden lg:block'}>
          <FilterBar onReset={active ? reset : undefined}>
            <Select label="Side-effect level" value={filters.level} onChange={(v) => set('level', v)} options={LEVEL_OPTIONS} />
            <SearchInput label="Agent" value={filters.agent} onChange={(v) => set('agent', v.trim())} placeholder="namespace/name" className="w-44" />
            <SearchInput label="Tool" value={filters.tool} onChange={(v) => set('tool', v)} placeholder="payments.refund" className="w-48" />
            <SearchInput label="Tool namespace" value={filters.namespace} onChange={(v) => set('namespace', v)} placeholder="payments" className="w-36" />
          </FilterBar>
        </div>
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
          data-testid="queue-notice"
          className={`flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm ${notice.tone === 'success' ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : notice.tone === 'conflict' ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-red-200 bg-red-50 text-red-900'}`}
        >
          <span className="min-w-0">{notice.text}</span>
          {notice.undo && (
            <Button onClick={() => undo.mutate(notice.undo!.ids)} disabled={busy} className="h-11 lg:h-8" data-testid="approval-undo">
              Undo
            </Button>
          )}
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
            <EmptyState title={awaitingChoice ? 'Decided — choose the next request' : 'Pick a request to see it in full'} />
          ) : (
            <div className="space-y-4">
              {selectedIds.length === 0 && focused && <ApprovalDetail approval={focused} />}
              {selectedIds.length > 0 && <BulkPanel selected={selectedItems} onUnselect={toggle} onClear={() => setSelected(new Set())} />}
              {deciding && (
                <Form className="space-y-2 border-t border-slate-200 pt-3" aria-label="Decision">
                  <DecisionComment value={comment} onChange={setComment} keptWith="with the decision in the call's record and the audit log" />
                  {/* Below 1024 px the decision bar at the bottom carries the one pair of buttons. */}
                  <div className="hidden gap-2 lg:flex">
                    <Button variant="primary" onClick={() => decide('approve')} disabled={busy} className="h-11 lg:h-8">
                      {approveLabel}
                    </Button>
                    <Button onClick={() => decide('deny')} disabled={busy} className="h-11 text-red-800 hover:bg-red-50 lg:h-8">
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

      {showBar && (
        // Below 1024 px the decision stays within reach of the thumb, whichever row is open.
        <div
          data-testid="approval-action-bar"
          className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] lg:hidden"
        >
          {selectedIds.length > 0 ? (
            <p className="text-sm font-medium text-slate-900">One decision for {selectedIds.length} requests</p>
          ) : focused ? (
            <>
              <div className="flex items-center gap-1.5">
                <p className="min-w-0 truncate font-mono text-sm font-medium text-slate-900">{focused.tool.id}</p>
                <LevelBadge level={focused.tool.level} />
                {focused.highRisk && <HighRiskTag />}
              </div>
              <SummaryLine approval={focused} className="truncate" />
              <ArgumentSummary summary={focused.summary} />
            </>
          ) : null}
          {deciding ? (
            <div className="mt-2 grid grid-cols-2 gap-2">
              <Button variant="primary" onClick={() => decide('approve')} disabled={busy} className="h-12">
                {approveLabel}
              </Button>
              <Button onClick={() => decide('deny')} disabled={busy} className="h-12 text-red-800 hover:bg-red-50">
                {denyLabel}
              </Button>
            </div>
          ) : (
            // Where the buttons were: nothing to tap until a request is chosen again.
            <p className="grid h-12 place-items-center text-sm font-medium text-slate-700" data-testid="approval-bar-decided">
              Decided — choose the next request
            </p>
          )}
        </div>
      )}

      {confirming && (
        <ConfirmDialog
          testId="approval-confirm"
          title={`${confirming.decision === 'approve' ? 'Approve' : 'Deny'} ${confirming.covered.length === 1 ? `${confirming.covered[0].tool.id}?` : `${confirming.covered.length} requests?`}`}
          confirmLabel={`Yes, ${confirming.decision}${confirming.covered.length === 1 ? '' : ` ${confirming.covered.length}`}`}
          tone={confirming.decision === 'deny' ? 'danger' : 'primary'}
          busy={busy}
          holdOnTouch
          confirmDisabled={confirming.decision === 'deny' && reason.trim() === ''}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { covered, bulk, decision } = confirming
            if (decision === 'deny' && reason.trim() === '') return
            setConfirming(null)
            send(decision, covered, bulk, decision === 'deny' ? reason.trim() : undefined)
          }}
        >
          <p>
            {confirming.decision === 'deny'
              ? 'It is marked high-risk: say why it is denied. The agent is told, and the reason is kept with the decision.'
              : confirming.covered.filter((a) => a.highRisk).length === 1 && confirming.covered.length === 1
                ? `Its level (${humanize(confirming.covered[0].tool.level ?? 'undeclared')}) is marked high-risk: once approved and past the few seconds to undo, a worker runs it and it cannot be called back.`
                : `${confirming.covered.filter((a) => a.highRisk).length} of them are at levels marked high-risk: once approved and past the few seconds to undo, workers run them and they cannot be called back.`}
          </p>
          <p className="mt-1 hidden text-xs text-slate-600 pointer-coarse:block">Hold the button until it says “Release to confirm”, then let go.</p>
          {confirming.decision === 'deny' && (
            <Field label="Reason (required)" className="mt-3">
              <TextArea
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                rows={2}
                maxLength={2000}
                placeholder="Why it is denied…"
                data-testid="deny-reason"
              />
            </Field>
          )}
          <ul className="mt-3 max-h-60 space-y-2 overflow-y-auto">
            {confirming.covered.map((a) => (
              <li key={a.id} className="rounded-md border border-slate-200 p-2">
                <p className="break-all font-mono text-sm">{a.tool.id}</p>
                <SummaryLine approval={a} />
                <PolicyReasons rules={a.policyRules} />
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
