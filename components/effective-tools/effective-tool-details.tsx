import { PhaseBadge } from '@/components/resources/status-badges'
import { TypeBadge } from '@/components/tools/badges'
import { SchemaView } from '@/components/tools/schema-view'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { count } from '@/lib/client/format'
import { ToolSourceLink } from './tool-source'

/** "60/min", "1,000/day": the limits set on an entry, none when neither is. */
export function rateLimitLines(tool: EffectiveTool): string[] {
  const { callsPerMinute, callsPerDay } = tool.rateLimit
  return [callsPerMinute !== null ? `${count(callsPerMinute)}/min` : null, callsPerDay !== null ? `${count(callsPerDay)}/day` : null].filter(
    (l): l is string => l !== null,
  )
}

/**
 * One entry of an effective tool set opened up, wherever it is listed (a table row, an agent's tool
 * card): its input schema beside where it comes from and how the gateway treats its calls.
 * `className` sets it off from what it opens under (background, margins).
 */
export function EffectiveToolDetails({ tool, className = '' }: { tool: EffectiveTool; className?: string }) {
  const limits = rateLimitLines(tool)
  return (
    <div className={`grid min-w-0 gap-4 rounded-md border border-slate-200 p-3 lg:grid-cols-[3fr_2fr] ${className}`}>
      <div className="min-w-0">
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Input schema</h4>
        <SchemaView schema={tool.inputSchema} />
      </div>
      <DefinitionList
        columns={1}
        items={[
          ['Description', tool.description || '—'],
          ['Source', <ToolSourceLink key="s" source={tool.source} />],
          ['Provenance', <Code key="p">{tool.provenance}</Code>],
          ['Type', tool.type ? <TypeBadge type={tool.type} /> : null],
          ['Upstream name', tool.upstreamName ? <Code>{tool.upstreamName}</Code> : null],
          [
            'Side-effect level',
            `${tool.sideEffects.level.replace(/_/g, ' ')} (${tool.sideEffects.levelSource}); ${tool.sideEffects.idempotent ? 'idempotent' : 'not idempotent'}`,
          ],
          ['Approval', tool.requiresApproval ? `required (by ${tool.approvalSource})` : `not required (by ${tool.approvalSource})`],
          ['Rate limit', limits.length ? limits.join(', ') : 'none'],
          ['Shadowed by', tool.shadowedBy ?? null],
          [
            'Status now',
            tool.health ? (
              <span key="h">
                <PhaseBadge phase={tool.health.phase} />
                {tool.health.problems.map((p) => (
                  <span key={p.type} className="mt-0.5 block text-xs text-slate-700">
                    {p.message} <span className="font-mono text-slate-500">({p.reason})</span>
                  </span>
                ))}
              </span>
            ) : null,
          ],
        ]}
      />
    </div>
  )
}
