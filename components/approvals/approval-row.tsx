'use client'
// One request in the queue list. Memoised: moving the focus, ticking clocks and polls that bring the
// same rows back re-render the rows that changed, not the whole list.
import { memo } from 'react'
import { LevelBadge } from '@/components/tools/badges'
import { TimeAgo } from '@/components/ui/time'
import type { ApprovalView } from '@/lib/client/approvals-api'
import { ApprovalStatusBadge, TimeLeft } from './approval-badges'

interface ApprovalRowProps {
  approval: ApprovalView
  focused: boolean
  /** Pending view for an approver: a checkbox for bulk decisions. */
  selectable: boolean
  selected: boolean
  /** Pending requests show the time left; decided ones their status and who decided. */
  pendingView: boolean
  onFocus: (id: string) => void
  onToggle: (id: string) => void
}

export const ApprovalRow = memo(function ApprovalRow({ approval: a, focused, selectable, selected, pendingView, onFocus, onToggle }: ApprovalRowProps) {
  return (
    <li
      id={`approval-${a.id}`}
      role="option"
      aria-selected={focused}
      data-testid="approval-row"
      data-approval-id={a.id}
      onClick={() => onFocus(a.id)}
      className={`flex cursor-pointer items-start gap-2 px-3 py-2 ${focused ? 'bg-sky-50 ring-1 ring-inset ring-sky-300' : 'hover:bg-slate-50'}`}
    >
      {selectable && (
        <input
          type="checkbox"
          aria-label={`Select ${a.tool.id} for ${a.agent.name}`}
          checked={selected}
          onChange={() => onToggle(a.id)}
          onClick={(e) => e.stopPropagation()}
          className="mt-1"
        />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="truncate font-mono text-sm text-slate-900">{a.tool.id}</span>
          <LevelBadge level={a.tool.level} />
          {!pendingView && <ApprovalStatusBadge status={a.status} />}
        </div>
        <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500">
          <span>
            {a.agent.name}
            {a.agent.unit ? ` · ${a.agent.unit}` : ''}
          </span>
          <span title={a.requestedAt}>
            asked <TimeAgo iso={a.requestedAt} />
          </span>
          {pendingView ? <TimeLeft expiresAt={a.expiresAt} /> : a.decision?.by && <span>by {a.decision.by}</span>}
        </div>
      </div>
    </li>
  )
})
