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
  const text =
    seconds < 60
      ? `${seconds} s left`
      : seconds < 3600
        ? `${Math.floor(seconds / 60)} min left`
        : seconds < 86400
          ? `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min left`
          : `${Math.floor(seconds / 86400)} d left`
  return <span className={`text-xs tabular-nums ${seconds < 300 ? 'font-medium text-red-700' : 'text-slate-600'}`}>{text}</span>
}
