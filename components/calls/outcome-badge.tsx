import { Badge, type BadgeTone } from '@/components/ui/badge'
import { humanize } from '@/lib/client/format'

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
  return <Badge tone={TONE[outcome] ?? 'gray'}>{humanize(outcome)}</Badge>
}
