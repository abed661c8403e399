'use client'
import { Badge } from '@/components/ui/badge'
import type { ApprovalStatus } from '@/lib/client/approvals-api'
import { useNow } from '@/lib/client/clock'

const STATUS_TONES = { pending: 'amber', approved: 'green', denied: 'red', expired: 'gray' } as const

export function ApprovalStatusBadge({ status }: { status: ApprovalStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{status}</Badge>
}

export function ExecutionBadge({ execution }: { execution: { status: string; error: string | null } | null }) {
  if (!execution) return null
  const tone = execution.status === 'succeeded' ? 'green' : execution.status === 'failed' ? 'red' : 'blue'
  return (
    <Badge tone={tone} title={execution.error ?? undefined}>
      run: {execution.status}
    </Badge>
  )
}

/** "12 min left", "expires in 40 s"; red in the last five minutes. */
export function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const now = useNow()
  const seconds = Math.round((new Date(expiresAt).getTime() - now) / 1000)
  if (seconds <= 0) return <span className="text-xs font-medium text-red-700">expired</span>
  return <span className={`text-xs tabular-nums ${seconds < 300 ? 'font-medium text-red-700' : 'text-slate-600'}`}>{durationText(seconds)} left</span>
}

/**
 * How long the call can still be made for its person (their identity provider's token expires before
 * the request does): approved later, it fails instead of acting for them.
 */
export function PersonTimeLeft({ until, person }: { until: string; person: string }) {
  const now = useNow()
  const seconds = Math.round((new Date(until).getTime() - now) / 1000)
  const title = `${person}'s token from their identity provider expires at ${until}: approved after that, the call fails instead of acting for them`
  if (seconds <= 0)
    return (
      <span data-testid="person-time-left" title={title} className="text-xs font-medium text-red-700">
        can no longer act for {person}
      </span>
    )
  return (
    <span data-testid="person-time-left" title={title} className="text-xs tabular-nums font-medium text-amber-800">
      for {person}: {durationText(seconds)} left
    </span>
  )
}

function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`
  return `${Math.floor(seconds / 86400)} d`
}
