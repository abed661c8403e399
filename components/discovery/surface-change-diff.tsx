'use client'
import { McpHintBadges } from '@/components/language-tools/mcp-hint-badges'
import type { McpHints } from '@/components/language-tools/types'
import { Badge } from '@/components/ui/badge'
import type { SurfaceDiff, SurfaceTool } from '@/lib/client/api'
import { RefusedEntries } from './refused-entries'
import { FieldDiff } from './value-diff'

/** "+2 −1 ~1": the size of a change at a glance. */
export function DiffCounts({ diff }: { diff: SurfaceDiff }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1 font-mono text-xs">
      {diff.added.length > 0 && (
        <span className="text-emerald-700" title={`${diff.added.length} tool(s) added`}>
          +{diff.added.length}
        </span>
      )}
      {diff.removed.length > 0 && (
        <span className="text-red-700" title={`${diff.removed.length} tool(s) removed`}>
          −{diff.removed.length}
        </span>
      )}
      {diff.changed.length > 0 && (
        <span className="text-amber-700" title={`${diff.changed.length} tool(s) changed`}>
          ~{diff.changed.length}
        </span>
      )}
      {diff.reordered && <span className="font-sans text-slate-500">order changed</span>}
      {(diff.refused?.length ?? 0) > 0 && (
        <span className="font-sans text-red-700" title={`${diff.refused!.length} entr${diff.refused!.length === 1 ? 'y' : 'ies'} refused`}>
          {diff.refused!.length} refused
        </span>
      )}
    </span>
  )
}

const HEADING_COLOR = { Added: 'text-emerald-800', Removed: 'text-red-800', Changed: 'text-amber-800' }

/** Tools added, removed or changed: a heading with their count over their list, or nothing when there are none. */
function ToolGroup({ change, count, children }: { change: 'Added' | 'Removed' | 'Changed'; count: number; children: React.ReactNode }) {
  if (count === 0) return null
  return (
    <section aria-label={`${change} tools`}>
      <h4 className={`mb-1 text-xs font-semibold uppercase tracking-wide ${HEADING_COLOR[change]}`}>
        {change} ({count})
      </h4>
      {children}
    </section>
  )
}

function ToolLines({ tools, tone }: { tools: SurfaceTool[]; tone: 'added' | 'removed' }) {
  return (
    <ToolGroup change={tone === 'added' ? 'Added' : 'Removed'} count={tools.length}>
      <ul className="space-y-1">
        {tools.map((t) => (
          <ToolLine key={t.name} tool={t} tone={tone} />
        ))}
      </ul>
    </ToolGroup>
  )
}

function ToolLine({ tool, tone }: { tool: SurfaceTool; tone: 'added' | 'removed' }) {
  const description = typeof tool.description === 'string' ? tool.description : typeof tool.title === 'string' ? tool.title : null
  return (
    <li className={`rounded-md border px-3 py-2 ${tone === 'added' ? 'border-emerald-200 bg-emerald-50/60' : 'border-red-200 bg-red-50/60'}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span aria-hidden className={`font-mono text-sm font-bold ${tone === 'added' ? 'text-emerald-700' : 'text-red-700'}`}>
          {tone === 'added' ? '+' : '−'}
        </span>
        <span className={`font-mono text-[13px] font-medium ${tone === 'removed' ? 'text-red-900 line-through decoration-red-300' : 'text-emerald-900'}`}>
          {tool.name}
        </span>
        {tool.annotations && <McpHintBadges hints={tool.annotations as McpHints} />}
      </div>
      {description && <p className="mt-0.5 pl-5 text-xs text-slate-600">{description}</p>}
    </li>
  )
}

/** A readable surface diff: tools added and removed, for changed tools each field before and after, and the entries refused. */
export function SurfaceChangeDiff({ diff }: { diff: SurfaceDiff }) {
  return (
    <div className="space-y-3">
      <ToolLines tools={diff.added} tone="added" />
      <ToolLines tools={diff.removed} tone="removed" />
      <ToolGroup change="Changed" count={diff.changed.length}>
        <ul className="space-y-2">
          {diff.changed.map((c) => (
            <li key={c.name} className="rounded-md border border-amber-200 bg-amber-50/40 px-3 py-2" data-tool-name={c.name}>
              <div className="flex flex-wrap items-center gap-2">
                <span aria-hidden className="font-mono text-sm font-bold text-amber-700">
                  ~
                </span>
                <span className="font-mono text-[13px] font-medium text-slate-900">{c.name}</span>
                {c.fields.map((f) => (
                  <Badge key={f} tone="amber" className="font-mono font-normal">
                    {f}
                  </Badge>
                ))}
              </div>
              <div className="mt-2 space-y-2">
                {c.fields.map((f) => (
                  <div key={f}>
                    <p className="mb-1 font-mono text-[11px] font-medium text-slate-600">{f}</p>
                    <FieldDiff before={c.before[f]} after={c.after[f]} />
                  </div>
                ))}
              </div>
            </li>
          ))}
        </ul>
      </ToolGroup>
      {diff.reordered && (
        <p className="text-xs text-slate-600">
          The order of the tools changed{diff.added.length + diff.removed.length + diff.changed.length === 0 ? ' (nothing else did)' : ''}.
        </p>
      )}
      {(diff.refused?.length ?? 0) > 0 && <RefusedEntries refused={diff.refused!} title="Refused and left out of the surface" />}
    </div>
  )
}
