'use client'
// One tool name of an agent's effective set: what a call of it gets (the deciding entry), the other
// sources of the name and why they lost, and for a name the agent cannot call, why not and the
// manifest change that fixes it (from the explainer, as an Apply draft).
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { CallFigures } from '@/components/effective-tools/call-figures'
import { FixLink } from '@/components/explain/fix-link'
import { EffectiveToolDetails } from '@/components/effective-tools/effective-tool-details'
import { StateBadge } from '@/components/effective-tools/effective-tool-row'
import { ApprovalBadge, LevelBadge } from '@/components/tools/badges'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { IntentLink } from '@/components/ui/intent-link'
import { explainCall } from '@/lib/client/explain-api'
import { resourceHref } from '@/lib/client/links'
import { queryKeys } from '@/lib/client/query-keys'
import type { NameGroup, NameVerdict } from '@/lib/client/tool-names'
import { shortProvenance } from '@/components/effective-tools/tool-source'

const VERDICT: Record<NameVerdict, { label: string; tone: BadgeTone; title: string }> = {
  callable: { label: 'callable', tone: 'green', title: 'the gateway runs calls of this tool' },
  approval: { label: 'needs approval', tone: 'indigo', title: "each call waits for a person's approval" },
  disabled: { label: 'disabled', tone: 'gray', title: 'turned off by a toggle' },
  denied: { label: 'denied', tone: 'red', title: 'a safety rule or a reserved namespace keeps it out' },
}

/** The explainer's fix for a name the agent cannot call, fetched when the card shows. */
function FixOf({ agentId, namespace, name }: { agentId: string; namespace?: string; name: string }) {
  const body = { tool: name }
  const query = useQuery({ queryKey: queryKeys.explain(agentId, namespace, body), queryFn: () => explainCall(agentId, namespace, body), staleTime: 30_000 })
  if (query.isPending) return <span className="text-xs text-slate-500">Looking for a fix…</span>
  if (query.isError || !query.data) return null
  if (query.data.fixes.length === 0) return <span className="text-xs text-slate-500">No manifest change fixes this here.</span>
  return (
    <span className="flex flex-col gap-0.5 text-xs">
      {query.data.fixes.map((f, i) => (
        <FixLink key={i} fix={f} compact />
      ))}
    </span>
  )
}

export function ToolNameCard({
  group,
  agentId,
  namespace,
  subjectNamespace,
  reasonIndex,
  onExplain,
}: {
  group: NameGroup
  agentId: string
  namespace?: string
  subjectNamespace: string
  /** Reasons shared by many left-out entries, numbered: such a reason is cited by its number. */
  reasonIndex: Map<string, number>
  onExplain: (name: string) => void
}) {
  const [open, setOpen] = useState(false)
  const tool = group.decides
  const verdict = VERDICT[group.verdict]
  const blocked = group.verdict === 'disabled' || group.verdict === 'denied'
  // Sources left out for a reason many names share are cited by its number, on the card's meta line.
  const cited = group.others.filter((o) => o.reason && reasonIndex.has(o.reason))
  const explained = group.others.filter((o) => !cited.includes(o))
  return (
    <li data-testid="tool-name-card" data-tool-name={group.name} data-verdict={group.verdict} data-provenance={tool.provenance} className="px-3 py-2 sm:px-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <p className="flex min-w-0 flex-1 basis-64 flex-wrap items-center gap-1.5">
          <button
            type="button"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            className="inline-flex min-w-0 items-baseline gap-1 text-left"
            title="Input schema and source"
          >
            <span aria-hidden className="w-3 shrink-0 text-xs text-slate-400">
              {open ? '▾' : '▸'}
            </span>
            <span className={`break-all font-mono text-[13px] font-medium ${blocked ? 'text-slate-500' : 'text-slate-900'}`}>{group.name}</span>
          </button>
          <Badge tone={verdict.tone} title={verdict.title}>
            {verdict.label}
          </Badge>
        </p>
        <div className="ml-4 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs sm:ml-0">
          <CallFigures tool={tool} />
          <button
            type="button"
            onClick={() => onExplain(group.name)}
            aria-label={`Explain a call of ${group.name}`}
            className="rounded border border-slate-300 bg-white px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-100"
          >
            Explain
          </button>
        </div>
      </div>
      <div className="ml-4 min-w-0">
        <p className="line-clamp-1 text-xs text-slate-600">{tool.description || <em>no description</em>}</p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
          <span className="break-all font-mono" title={tool.provenance}>
            {shortProvenance(tool.provenance)}
          </span>
          {tool.inheritedFromUnit && (
            <IntentLink href={resourceHref('Unit', tool.inheritedFromUnit, subjectNamespace)} className="text-sky-800 hover:underline">
              from unit {tool.inheritedFromUnit}
            </IntentLink>
          )}
          <LevelBadge level={tool.sideEffects.level} source={tool.sideEffects.levelSource} />
          <ApprovalBadge required={tool.requiresApproval} source={tool.approvalSource} />
          {cited.map((o, i) => {
            const n = reasonIndex.get(o.reason!)! + 1
            return (
              <a
                key={i}
                href={`#left-out-${n - 1}`}
                title={o.reason ?? undefined}
                className="text-slate-500 hover:underline"
                data-testid="other-source"
                data-state={o.state}
              >
                also <span className="font-mono">{shortProvenance(o.provenance)}</span>: {o.state === 'shadowed' ? 'shadowed' : 'left out'} ({n})
              </a>
            )
          })}
        </p>

        {blocked && (
          <div className="mt-1.5 space-y-0.5 rounded border border-red-200 bg-red-50 px-2 py-1.5 text-xs" data-testid="why-not">
            <p className="break-words text-red-900">
              <span className="font-semibold">Why not:</span> {tool.reason ?? tool.state}
            </p>
            <FixOf agentId={agentId} namespace={namespace} name={group.name} />
          </div>
        )}

        {explained.length > 0 && (
          <ul className="mt-1 space-y-0.5 border-l-2 border-slate-200 pl-2 text-xs" aria-label={`Other sources of ${group.name}`}>
            {explained.map((other, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-x-1.5 text-slate-600" data-testid="other-source" data-state={other.state}>
                <span className="break-all font-mono text-slate-700" title={other.provenance}>
                  {shortProvenance(other.provenance)}
                </span>
                <StateBadge tool={other} className="font-normal" />
                <span className="min-w-0 break-words">{other.reason}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {open && <EffectiveToolDetails tool={tool} className="ml-4 mt-2 bg-slate-50" />}
    </li>
  )
}
