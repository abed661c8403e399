'use client'
// What a bulk decision covers, listed before it is made: every request with its key arguments, then
// the totals (per level, per tool, and the sums of numeric arguments such as amounts).
import { LevelBadge } from '@/components/tools/badges'
import { bulkTotals } from '@/lib/approvals/bulk-totals'
import type { ApprovalView } from '@/lib/client/approvals-api'
import { count, humanize } from '@/lib/client/format'
import { ArgumentSummary, HighRiskTag, SummaryLine } from './argument-summary'

export function BulkPanel({ selected, onUnselect, onClear }: { selected: ApprovalView[]; onUnselect: (id: string) => void; onClear: () => void }) {
  const totals = bulkTotals(selected)
  return (
    <div className="space-y-3" data-testid="bulk-panel">
      <p className="text-sm text-slate-700">
        One decision for these {count(totals.count)} requests; each is recorded on its own, and any that another approver decided first is reported back.{' '}
        <button type="button" className="text-sky-800 underline-offset-2 hover:underline" onClick={onClear}>
          Clear selection
        </button>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm sm:grid-cols-3" data-testid="bulk-totals">
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Requests</dt>
          <dd className="font-semibold tabular-nums">{count(totals.count)}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">High risk</dt>
          <dd className={`font-semibold tabular-nums ${totals.highRisk ? 'text-red-800' : ''}`}>{count(totals.highRisk)}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">By level</dt>
          <dd className="text-xs">{totals.byLevel.map((l) => `${count(l.count)} ${humanize(l.level)}`).join(', ')}</dd>
        </div>
        {totals.sums.map((s) => (
          <div key={`${s.field} ${s.currency ?? ''}`} data-testid="bulk-sum" data-field={s.field}>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Total {s.field}</dt>
            <dd className="font-mono font-semibold tabular-nums">
              {s.total}
              {s.currency ? ` ${s.currency}` : ''} <span className="font-sans text-xs font-normal text-slate-600">over {count(s.count)}</span>
            </dd>
          </div>
        ))}
      </dl>
      <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200" aria-label="Requests in this decision">
        {selected.map((a) => (
          <li key={a.id} className="flex items-start gap-2 px-3 py-2" data-testid="bulk-item" data-approval-id={a.id}>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="min-w-0 break-all font-mono text-sm">{a.tool.id}</span>
                <LevelBadge level={a.tool.level} />
                {a.highRisk && <HighRiskTag />}
              </div>
              <SummaryLine approval={a} className="mt-0.5" />
              <ArgumentSummary summary={a.summary} className="mt-0.5" />
              <p className="break-all text-xs text-slate-600">
                {a.agent.namespace}/{a.agent.name}
              </p>
            </div>
            <button
              type="button"
              onClick={() => onUnselect(a.id)}
              className="shrink-0 rounded px-1.5 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
              aria-label={`Leave ${a.tool.id} for ${a.agent.name} out`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
