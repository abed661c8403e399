'use client'
// The queue at a glance for the dashboard: how many wait, for how long, and how fast people decide.
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { QueryView } from '@/components/ui/states'
import { useApprovalStats } from '@/lib/client/approval-hooks'
import { count, duration, timeAgo } from '@/lib/client/format'

export function ApprovalQueueCard() {
  const stats = useApprovalStats()
  return (
    <Card
      title="Approval queue"
      description="Calls waiting for a human, and how long decisions took over the last 7 days."
      actions={
        <IntentLink href="/approvals" className="text-xs font-medium text-sky-700 hover:underline">
          Open the queue
        </IntentLink>
      }
    >
      <QueryView query={stats}>
        {(s) => (
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="approval-queue-stats">
            <Figure label="Waiting" value={count(s.pending)} hint={s.oldestPendingAt ? `oldest asked ${timeAgo(s.oldestPendingAt)}` : 'nothing waiting'} />
            <Figure label="Time to decision, p50" value={seconds(s.timeToDecisionSeconds.p50)} hint={`${count(s.timeToDecisionSeconds.decided)} decided`} />
            <Figure label="Time to decision, p95" value={seconds(s.timeToDecisionSeconds.p95)} />
            <Figure
              label="Last 7 days"
              value={`${count(s.decided7d.approved)} / ${count(s.decided7d.denied)} / ${count(s.decided7d.expired)}`}
              hint="approved / denied / expired"
            />
          </dl>
        )}
      </QueryView>
    </Card>
  )
}

const seconds = (s: number | null) => (s === null ? '—' : duration(s * 1000))

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  )
}
