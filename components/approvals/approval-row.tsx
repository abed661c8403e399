'use client'
// One request in the queue list: tool, level, the arguments that matter, agent and time. The row is
// an option of the queue's listbox (focus moves between rows with the keyboard, one Tab stop for the
// whole list); its box marks it for a bulk decision. Memoised: moving the focus, ticking clocks and
// polls that bring the same rows back re-render the rows that changed, not the whole list.
import { memo } from 'react'
import { LevelBadge } from '@/components/tools/badges'
import { TimeAgo } from '@/components/ui/time'
import type { ApprovalView } from '@/lib/client/approvals-api'
import { ApprovalStatusBadge, PersonTimeLeft, TimeLeft } from './approval-badges'
import { ArgumentSummary, HighRiskTag, PolicyReasons, SummaryLine } from './argument-summary'

interface ApprovalRowProps {
  approval: ApprovalView
  focused: boolean
  /** Pending view for an approver: a box to mark it for a bulk decision. */
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
      aria-checked={selectable ? selected : undefined}
      data-testid="approval-row"
      data-approval-id={a.id}
      onClick={() => onFocus(a.id)}
      className={`flex cursor-pointer items-start gap-2 px-3 py-2 ${focused ? 'bg-sky-50 ring-1 ring-inset ring-sky-300' : 'hover:bg-slate-50'}`}
    >
      {selectable && (
        // Not a focusable checkbox: the row is the control (x or Space marks it); this is its mouse
        // target, 44 px square below 1024 px for a thumb.
        <span
          aria-hidden
          data-testid="approval-select"
          onClick={(e) => {
            e.stopPropagation()
            onToggle(a.id)
          }}
          className="-my-2.5 -ml-3 grid h-11 w-11 shrink-0 place-items-center lg:my-0 lg:ml-0 lg:mt-0.5 lg:h-5 lg:w-5"
        >
          <span
            className={`grid h-5 w-5 place-items-center rounded border text-xs font-bold ${selected ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-400 bg-white text-transparent hover:border-slate-700'}`}
          >
            ✓
          </span>
        </span>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="min-w-0 break-all font-mono text-sm text-slate-900">{a.tool.id}</span>
          <LevelBadge level={a.tool.level} />
          {pendingView && a.highRisk && <HighRiskTag />}
          {!pendingView && <ApprovalStatusBadge status={a.status} />}
        </div>
        <SummaryLine approval={a} className="mt-1" />
        <PolicyReasons rules={a.policyRules} className="mt-1" />
        <ArgumentSummary summary={a.summary} className="mt-1" />
        <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-600">
          <span className="min-w-0 break-all">
            {a.agent.name}
            {a.onBehalfOf && (
              <span data-testid="on-behalf-of" title={`${a.onBehalfOf.subject} at ${a.onBehalfOf.issuer}`}>
                {' '}
                for <span className="font-medium text-slate-800">{a.onBehalfOf.displayName}</span>
              </span>
            )}
            {a.agent.unit ? ` · ${a.agent.unit}` : ''}
          </span>
          <span title={a.requestedAt}>
            asked <TimeAgo iso={a.requestedAt} />
          </span>
          {pendingView ? <TimeLeft expiresAt={a.expiresAt} /> : a.decision?.by && <span>by {a.decision.by}</span>}
          {pendingView && a.onBehalfOf && a.onBehalfOfUntil && <PersonTimeLeft until={a.onBehalfOfUntil} person={a.onBehalfOf.displayName} />}
        </div>
      </div>
    </li>
  )
})
