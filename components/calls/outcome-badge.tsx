import { Badge, type BadgeTone } from '@/components/ui/badge'
import { outcomeLabel } from '@/lib/stats/call-outcomes'

const TONE: Record<string, BadgeTone> = {
  succeeded: 'green',
  failed: 'red',
  denied: 'rose',
  invalid_arguments: 'orange',
  rate_limited: 'amber',
  deduplicated: 'gray',
  pending_approval: 'violet',
  approved: 'indigo',
  rejected: 'rose',
  expired: 'gray',
}

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return <Badge tone={TONE[outcome] ?? 'gray'}>{outcomeLabel(outcome).replace(/^./, (c) => c.toUpperCase())}</Badge>
}
