'use client'
// A Tool's observed conditions (README, "Tool status"): what a call needs and whether it holds now.
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { TimeAgo } from '@/components/ui/time'

export interface ToolConditionView {
  type: string
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message: string
  lastTransitionTime: string
}

const STATUS_TONE: Record<ToolConditionView['status'], BadgeTone> = { True: 'green', False: 'red', Unknown: 'amber' }
const STATUS_WORD: Record<ToolConditionView['status'], string> = { True: 'yes', False: 'no', Unknown: 'unknown' }

/** "SecretAvailable" → "Secret available". */
const conditionLabel = (type: string) => {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function ToolConditionsList({ conditions }: { conditions: ToolConditionView[] | undefined }) {
  if (!conditions || conditions.length === 0)
    return <p className="text-sm text-slate-600">Not observed yet: the status appears moments after the tool is written.</p>
  return (
    <ul className="divide-y divide-slate-100" aria-label="Conditions">
      {conditions.map((c) => (
        <li key={c.type} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-start sm:gap-3">
          <span className="w-44 shrink-0 text-sm font-medium text-slate-800">{conditionLabel(c.type)}</span>
          <span className="shrink-0">
            <Badge tone={STATUS_TONE[c.status]} title={c.reason}>
              {STATUS_WORD[c.status]}
            </Badge>
          </span>
          <span className="min-w-0 flex-1 break-words text-sm text-slate-700">
            {c.message} <span className="font-mono text-xs text-slate-500">({c.reason})</span>
          </span>
          <span className="shrink-0 text-xs text-slate-500">
            since <TimeAgo iso={c.lastTransitionTime} />
          </span>
        </li>
      ))}
    </ul>
  )
}
