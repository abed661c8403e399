// What a held call will do, as the Tool says it reads (docs/design/approvals.md#summaries): its
// summary line, the few arguments that tell one request from another (in their units, with the links
// the Tool declares, and what a left-out argument means), and the Policy rules that asked for it.
// Redacted values stay redacted.
import type { ApprovalView } from '@/lib/client/approvals-api'

export function ArgumentSummary({ summary, className = '' }: { summary: ApprovalView['summary']; className?: string }) {
  if (!summary?.length) return null
  return (
    <dl className={`flex min-w-0 flex-wrap gap-x-3 gap-y-0.5 text-xs ${className}`} data-testid="argument-summary">
      {summary.map((e) => (
        <div key={e.field} className="flex min-w-0 max-w-full items-baseline gap-1">
          <dt className="shrink-0 text-slate-600" title={e.label ? e.field : undefined}>
            {e.label ?? e.field}
          </dt>
          <dd className={`min-w-0 truncate font-medium text-slate-900 ${e.absent ? 'italic' : 'font-mono'}`} title={e.value}>
            {e.href ? (
              // Operators declare the link's host; the agent's value is only a URL-encoded part of it.
              <a href={e.href} target="_blank" rel="noopener noreferrer nofollow" className="text-sky-800 underline" onClick={(ev) => ev.stopPropagation()}>
                {e.value}
              </a>
            ) : (
              e.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** The Tool's own sentence for the call; a line built from the schema repeats the entries, so it is left out. */
export function SummaryLine({ approval, className = '' }: { approval: Pick<ApprovalView, 'summaryLine' | 'summarySource'>; className?: string }) {
  if (approval.summarySource !== 'template') return null
  return (
    <p className={`min-w-0 text-sm font-medium text-slate-900 [overflow-wrap:anywhere] ${className}`} data-testid="approval-summary-line">
      {approval.summaryLine}
    </p>
  )
}

/** Why a Policy holds the call: each rule's reason, naming the policy. */
export function PolicyReasons({ rules, className = '' }: { rules: ApprovalView['policyRules']; className?: string }) {
  if (!rules?.length) return null
  return (
    <ul className={`space-y-0.5 text-xs ${className}`} data-testid="approval-policy-reasons">
      {rules.map((r) => (
        <li key={`${r.policy}#${r.rule}`} className="min-w-0 [overflow-wrap:anywhere]">
          <span className="rounded bg-amber-100 px-1 py-0.5 font-semibold text-amber-900">Policy</span> <span className="text-slate-900">{r.reason}</span>{' '}
          <span className="text-slate-600">({r.policy})</span>
        </li>
      ))}
    </ul>
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
