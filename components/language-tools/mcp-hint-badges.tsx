import { Badge } from '@/components/ui/badge'
import type { McpHints } from './types'

// MCP's defaults when a server leaves a hint out: not read-only, destructive, not idempotent,
// open-world. Toolroom treats missing hints that way too, so the page shows them as such.
const HINTS = [
  { key: 'readOnlyHint', label: 'read-only', fallback: false, tone: 'green' },
  { key: 'destructiveHint', label: 'destructive', fallback: true, tone: 'red' },
  { key: 'idempotentHint', label: 'idempotent', fallback: false, tone: 'blue' },
  { key: 'openWorldHint', label: 'open-world', fallback: true, tone: 'amber' },
] as const

export function McpHintBadges({ hints }: { hints: McpHints | undefined }) {
  const readOnly = hints?.readOnlyHint ?? false
  return (
    <span className="inline-flex flex-wrap gap-1">
      {HINTS.map((h) => {
        const declared = hints?.[h.key]
        // destructiveHint only means something for tools that write.
        const value = h.key === 'destructiveHint' && readOnly ? false : (declared ?? h.fallback)
        if (!value) return null
        return (
          <Badge
            key={h.key}
            tone={h.tone}
            title={declared === undefined ? `${h.key} not declared: MCP default` : `${h.key}: ${declared}`}
            className={declared === undefined ? 'border border-dashed opacity-80' : ''}
          >
            {h.label}
            {declared === undefined && <span className="opacity-60">*</span>}
          </Badge>
        )
      })}
    </span>
  )
}
