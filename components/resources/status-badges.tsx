import { Badge, type BadgeTone } from '@/components/ui/badge'

const PHASE_TONE: Record<string, BadgeTone> = {
  ready: 'green',
  running: 'green',
  available: 'green',
  pending: 'gray',
  introspecting: 'blue',
  degraded: 'amber',
  failed: 'red',
  error: 'red',
  unreachable: 'red',
}

/** `why`: what keeps it from Ready, shown on hover. */
export function PhaseBadge({ phase, why }: { phase: string | null | undefined; why?: string | null }) {
  if (!phase) return <span className="text-slate-400">—</span>
  return (
    <Badge tone={PHASE_TONE[phase.toLowerCase()] ?? 'gray'} title={why ?? undefined}>
      {phase}
    </Badge>
  )
}

export function HealthBadge({ health }: { health: string | null | undefined }) {
  if (!health) return <span className="text-xs text-slate-400">unknown</span>
  const tone: BadgeTone = health === 'ok' || health === 'healthy' ? 'green' : 'red'
  return <Badge tone={tone}>{health}</Badge>
}

export function LabelBadges({ labels }: { labels: Record<string, string> | undefined }) {
  const entries = Object.entries(labels ?? {})
  if (entries.length === 0) return null
  return (
    <span className="inline-flex flex-wrap gap-1">
      {entries.map(([k, v]) => (
        <Badge key={k} tone="gray" className="font-mono font-normal">
          {k}={v}
        </Badge>
      ))}
    </span>
  )
}
