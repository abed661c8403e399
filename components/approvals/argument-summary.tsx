// The few arguments that tell one request from another (an invoice and its amount), as the tool or
// its level chose them; redacted values stay redacted.
import type { ApprovalView } from '@/lib/client/approvals-api'

export function ArgumentSummary({ summary, className = '' }: { summary: ApprovalView['summary']; className?: string }) {
  if (!summary?.length) return null
  return (
    <dl className={`flex min-w-0 flex-wrap gap-x-3 gap-y-0.5 text-xs ${className}`} data-testid="argument-summary">
      {summary.map((e) => (
        <div key={e.field} className="flex min-w-0 max-w-full items-baseline gap-1">
          <dt className="shrink-0 text-slate-600">{e.field}</dt>
          <dd className="min-w-0 truncate font-mono font-medium text-slate-900" title={e.value}>
            {e.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}

export function HighRiskTag() {
  return (
    <span
      className="rounded bg-red-700 px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-white"
      title="Approving asks for a confirmation first (the level is marked high-risk)"
    >
      high risk
    </span>
  )
}
