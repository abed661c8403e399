import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { ToolAnnotations } from '@/lib/effective-tools/types'
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '@/lib/manifests/side-effect-levels'

/** The side-effect levels in order of risk, as the manifests define them. */
export const LEVELS: readonly SideEffectLevel[] = SIDE_EFFECT_LEVELS

// Colour rises with risk; bars and badges share the hue so the dashboard and tables read alike.
const LEVEL_STYLE: Record<string, { tone: BadgeTone; bar: string }> = {
  read_only: { tone: 'green', bar: 'bg-emerald-500' },
  local_write: { tone: 'blue', bar: 'bg-sky-500' },
  external_write: { tone: 'amber', bar: 'bg-amber-500' },
  communication: { tone: 'violet', bar: 'bg-violet-500' },
  code_execution: { tone: 'orange', bar: 'bg-orange-500' },
  financial: { tone: 'rose', bar: 'bg-rose-600' },
  privileged: { tone: 'red', bar: 'bg-red-700' },
  undeclared: { tone: 'gray', bar: 'bg-slate-400' },
}

export function levelBarClass(level: string): string {
  return (LEVEL_STYLE[level] ?? LEVEL_STYLE.undeclared).bar
}

export function LevelBadge({ level, source }: { level: string | null | undefined; source?: string }) {
  const key = level ?? 'undeclared'
  const title =
    source && source !== 'declared'
      ? `level ${source === 'default' ? 'assumed by default (none declared)' : 'derived from MCP annotations'}`
      : 'side-effect level'
  return (
    <Badge tone={(LEVEL_STYLE[key] ?? LEVEL_STYLE.undeclared).tone} title={title}>
      {key.replace(/_/g, ' ')}
      {source && source !== 'declared' && <span className="opacity-60">*</span>}
    </Badge>
  )
}

const APPROVAL_SOURCE_TITLES = {
  tool: 'required by the tool itself',
  policy: 'required by the side-effect policy for this level',
  default: "required by Toolroom's default for this level (no policy overrides it)",
}

export function ApprovalBadge({ required, source }: { required: boolean; source?: keyof typeof APPROVAL_SOURCE_TITLES }) {
  if (!required) return null
  return (
    <Badge tone="dark" title={APPROVAL_SOURCE_TITLES[source ?? 'tool']}>
      approval
    </Badge>
  )
}

export function AnnotationBadges({ annotations }: { annotations: ToolAnnotations }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {annotations.readOnly && (
        <Badge tone="green" title="readOnly: does not modify its environment">
          read-only
        </Badge>
      )}
      {annotations.destructive && (
        <Badge tone="red" title="destructive: may perform destructive updates">
          destructive
        </Badge>
      )}
      {annotations.idempotent && (
        <Badge tone="blue" title="idempotent: repeating a call has no additional effect">
          idempotent
        </Badge>
      )}
      {annotations.openWorld && (
        <Badge tone="amber" title="openWorld: interacts with external entities">
          open-world
        </Badge>
      )}
    </span>
  )
}

const TYPE_TONE: Record<string, BadgeTone> = { function: 'indigo', rest: 'blue', mcp: 'violet', os: 'orange' }

export function TypeBadge({ type }: { type: string | null | undefined }) {
  if (!type) return null
  return <Badge tone={TYPE_TONE[type] ?? 'gray'}>{type}</Badge>
}
