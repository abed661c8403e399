'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { useState } from 'react'
import { PhaseBadge } from '@/components/resources/status-badges'
import { AnnotationBadges, ApprovalBadge, LevelBadge } from '@/components/tools/badges'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Td, Tr } from '@/components/ui/table'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { CallFigures } from './call-figures'
import { resourceHref } from '@/lib/client/links'
import { EffectiveToolDetails, rateLimitLines } from './effective-tool-details'
import { shortProvenance } from './tool-source'

export const EFFECTIVE_TOOL_COLUMNS = 6

const STATE_TONE: Record<EffectiveTool['state'], BadgeTone> = { enabled: 'green', disabled: 'gray', shadowed: 'amber', denied: 'red' }

export function StateBadge({ tool, className }: { tool: Pick<EffectiveTool, 'state' | 'reason'>; className?: string }) {
  return (
    <Badge tone={STATE_TONE[tool.state]} title={tool.reason ?? undefined} className={className}>
      {tool.state}
    </Badge>
  )
}

export function EffectiveToolRow({ tool, unitNamespace, showProvenance = false }: { tool: EffectiveTool; unitNamespace: string; showProvenance?: boolean }) {
  const [open, setOpen] = useState(false)
  const muted = tool.state !== 'enabled'
  const limits = rateLimitLines(tool)
  return (
    <>
      <Tr
        data-testid="effective-tool-row"
        data-tool-name={tool.name}
        data-provenance={tool.provenance}
        data-state={tool.state}
        className={`cursor-pointer hover:bg-slate-50 ${open ? 'bg-slate-50' : ''}`}
        onClick={(e) => {
          // Links inside the row navigate; everything else toggles the details.
          if (!(e.target as HTMLElement).closest('a')) setOpen(!open)
        }}
      >
        <Td className="max-w-md">
          <button type="button" aria-expanded={open} className="flex items-start gap-1.5 text-left" onClick={(e) => (e.stopPropagation(), setOpen(!open))}>
            <span aria-hidden className="mt-0.5 w-3 text-xs text-slate-400">
              {open ? '▾' : '▸'}
            </span>
            <span className={`break-all font-mono text-[13px] font-medium ${muted ? 'text-slate-500' : 'text-slate-900'}`}>{tool.name}</span>
          </button>
          <p className={`ml-[18px] line-clamp-2 text-xs ${muted ? 'text-slate-400' : 'text-slate-600'}`}>{tool.description || <em>no description</em>}</p>
          {showProvenance && tool.reason && (
            <p className={`ml-[18px] mt-0.5 text-xs font-medium ${tool.state === 'denied' ? 'text-red-800' : 'text-amber-800'}`}>Why: {tool.reason}</p>
          )}
          {(tool.inheritedFromUnit || showProvenance) && (
            <p className="ml-[18px] mt-0.5 text-xs text-slate-500">
              {showProvenance && (
                <span className="font-mono" title={tool.provenance}>
                  {shortProvenance(tool.provenance)}
                </span>
              )}
              {showProvenance && tool.inheritedFromUnit && ' · '}
              {tool.inheritedFromUnit && (
                <IntentLink href={resourceHref('Unit', tool.inheritedFromUnit, unitNamespace)} className="text-sky-700 hover:underline">
                  from unit {tool.inheritedFromUnit}
                </IntentLink>
              )}
            </p>
          )}
        </Td>
        <Td>
          <span className="flex flex-wrap gap-1">
            <LevelBadge level={tool.sideEffects.level} source={tool.sideEffects.levelSource} />
            <ApprovalBadge required={tool.requiresApproval} source={tool.approvalSource} />
          </span>
        </Td>
        <Td>
          <AnnotationBadges annotations={tool.annotations} />
        </Td>
        <Td className="whitespace-nowrap text-xs text-slate-600">
          {limits.length ? limits.map((l) => <div key={l}>{l}</div>) : <span className="text-slate-400">none</span>}
        </Td>
        <Td className="whitespace-nowrap text-right text-xs tabular-nums text-slate-600">
          <CallFigures tool={tool} stacked />
        </Td>
        <Td className="max-w-56">
          <StateBadge tool={tool} />
          {tool.reason && !showProvenance && <p className="mt-0.5 break-words text-xs text-slate-500">{tool.reason}</p>}
          {tool.state === 'enabled' && tool.health && tool.health.phase !== 'Ready' && (
            <p
              className="mt-1 line-clamp-2 break-words text-xs text-slate-600"
              data-testid="effective-tool-health"
              title={tool.health.problems.map((p) => p.message).join('\n')}
            >
              <PhaseBadge phase={tool.health.phase} /> {tool.health.problems[0]?.message}
            </p>
          )}
          {tool.shadowedBy && <p className="mt-0.5 break-words text-xs text-slate-500">by {tool.shadowedBy}</p>}
        </Td>
      </Tr>
      {open && (
        <tr className="bg-slate-50">
          <td colSpan={EFFECTIVE_TOOL_COLUMNS} className="px-3 pb-4 pt-1">
            <EffectiveToolDetails tool={tool} className="bg-white" />
          </td>
        </tr>
      )}
    </>
  )
}
