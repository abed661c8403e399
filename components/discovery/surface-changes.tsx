'use client'
import { useState } from 'react'
import { useCan } from '@/components/access/caller-context'
import { Card } from '@/components/ui/card'
import { DisclosureCaret } from '@/components/ui/expandable-rows'
import { PagedList } from '@/components/ui/paged-list'
import { EmptyState } from '@/components/ui/states'
import type { DiscoveryFilters, SurfaceChange } from '@/lib/client/api'
import { dateTime, timeAgo } from '@/lib/client/format'
import { useSurfaceChanges } from '@/lib/client/hooks'
import { summarizeDiff } from '@/lib/discovery/diff-surface'
import { ChangeStatusBadge, SubjectLink } from './discovery-badges'
import { DecisionForm, type DecisionNotice } from './decision-form'
import { DiffCounts, SurfaceChangeDiff } from './surface-change-diff'
import type { DiscoveryListProps } from './discovery-runs-card'

type OnDecided = (notice: DecisionNotice) => void

function Decision({ change, onDecided }: { change: SurfaceChange; onDecided?: OnDecided }) {
  const canDecide = useCan('write')
  if (change.status === 'pending_review' && !canDecide)
    return <p className="text-xs text-slate-500">Waiting for an operator or admin to accept or reject it.</p>
  if (change.status === 'pending_review') return <DecisionForm change={change} onDecided={onDecided} />
  if (change.status === 'accepted' || change.status === 'rejected')
    return (
      <div
        className={`rounded-md border px-3 py-2 text-xs ${change.status === 'accepted' ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-rose-200 bg-rose-50 text-rose-900'}`}
      >
        <p>
          <span className="font-semibold">{change.status === 'accepted' ? 'Accepted' : 'Rejected'}</span> by{' '}
          <span className="font-medium">{change.decidedBy ?? 'unknown'}</span>{' '}
          <span title={dateTime(change.decidedAt)}>
            {timeAgo(change.decidedAt)} ({dateTime(change.decidedAt)})
          </span>
        </p>
        {change.comment ? (
          <p className="mt-1 whitespace-pre-wrap break-words italic">“{change.comment}”</p>
        ) : (
          <p className="mt-1 text-slate-500">No comment.</p>
        )}
      </div>
    )
  return null
}

/** One change: status, size and time on a line; the diff (and decision) below when opened. */
function SurfaceChangeRow({
  change,
  showSubject,
  initiallyOpen,
  onDecided,
}: {
  change: SurfaceChange
  showSubject: boolean
  initiallyOpen: boolean
  onDecided?: OnDecided
}) {
  const [open, setOpen] = useState(initiallyOpen)
  const bodyId = `change-${change.id}`
  return (
    <li data-testid="surface-change-row" data-change-id={change.id} data-status={change.status} className="px-4 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
          className="inline-flex items-center gap-1.5 text-left text-sm font-medium text-slate-900 hover:underline"
        >
          <DisclosureCaret open={open} />
          {open ? 'Hide diff' : 'Show diff'}
        </button>
        <ChangeStatusBadge status={change.status} />
        <DiffCounts diff={change.diff} />
        {showSubject && <SubjectLink kind={change.subjectKind} id={change.subjectId} namespace={change.namespace} name={change.name} />}
        <span className="ml-auto whitespace-nowrap text-xs text-slate-500" title={dateTime(change.detectedAt)}>
          detected {timeAgo(change.detectedAt)}
        </span>
      </div>
      <p className="mt-1 line-clamp-2 break-words pl-[18px] font-mono text-[11px] text-slate-600" title={summarizeDiff(change.diff)}>
        {summarizeDiff(change.diff)}
      </p>
      {(change.status === 'accepted' || change.status === 'rejected') && !open && (
        <p className="mt-1 pl-[18px] text-xs text-slate-500">
          {change.status === 'accepted' ? 'Accepted' : 'Rejected'} by {change.decidedBy ?? 'unknown'} {timeAgo(change.decidedAt)}
          {change.comment ? `: “${change.comment}”` : ''}
        </p>
      )}
      {open && (
        <div id={bodyId} className="mt-2 pl-[18px]">
          <SurfaceChangeDiff diff={change.diff} />
        </div>
      )}
      {(open || change.status === 'pending_review') && (
        <div className="mt-3 pl-[18px]">
          <Decision change={change} onDecided={onDecided} />
        </div>
      )}
    </li>
  )
}

export function SurfaceChangesList({ filters, showSubject = false, emptyTitle, emptyHint, pageSize = 10 }: DiscoveryListProps) {
  const list = useSurfaceChanges(filters, pageSize)
  // Kept here, not in the row: a decided change leaves a list filtered to pending ones.
  const [notice, setNotice] = useState<DecisionNotice | null>(null)
  return (
    <>
      {notice && (
        <div
          role="status"
          className={`flex items-start justify-between gap-3 border-b px-4 py-2 text-sm ${notice.tone === 'success' ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
        >
          <p>{notice.text}</p>
          <button type="button" onClick={() => setNotice(null)} className="shrink-0 text-xs font-medium underline">
            Dismiss
          </button>
        </div>
      )}
      <PagedList list={list} loadingLabel="Loading changes…" empty={<EmptyState title={emptyTitle}>{emptyHint}</EmptyState>}>
        {(changes) => (
          <ul className="divide-y divide-slate-100">
            {changes.map((c) => (
              <SurfaceChangeRow key={c.id} change={c} showSubject={showSubject} initiallyOpen={c.status === 'pending_review'} onDecided={setNotice} />
            ))}
          </ul>
        )}
      </PagedList>
    </>
  )
}

/** The change history of one subject, newest first. */
export function SurfaceChangesCard({ filters, description }: { filters: DiscoveryFilters; description?: React.ReactNode }) {
  return (
    <Card id="change-history" title="Change history" description={description} bodyClassName="">
      <SurfaceChangesList
        filters={filters}
        emptyTitle="No changes recorded"
        emptyHint="A change is recorded when a discovery finds tools added, removed or redefined."
      />
    </Card>
  )
}
