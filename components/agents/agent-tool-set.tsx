'use client'
// An agent's effective set, first on its page: one card per tool name, searchable and filterable by
// what a call would get, reasons shared by many left-out entries said once, and "Explain" on every
// name (the explain panel below runs it).
import { useMemo, useState } from 'react'
import { UnresolvedWarnings } from '@/components/effective-tools/unresolved-warnings'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { SearchInput } from '@/components/ui/search-input'
import type { EffectiveToolsAnswer } from '@/lib/client/api'
import { groupByName, matchesSearch, type NameVerdict, repeatedReasons } from '@/lib/client/tool-names'
import { ToolNameCard } from './tool-name-card'

type Filter = 'all' | 'callable' | 'approval' | 'blocked' | 'contested'

const FILTERS: Array<{ id: Filter; label: string; test: (verdict: NameVerdict, contested: boolean) => boolean }> = [
  { id: 'all', label: 'All', test: () => true },
  { id: 'callable', label: 'Callable', test: (v) => v === 'callable' || v === 'approval' },
  { id: 'approval', label: 'Need approval', test: (v) => v === 'approval' },
  { id: 'blocked', label: 'Not callable', test: (v) => v === 'disabled' || v === 'denied' },
  { id: 'contested', label: 'Several sources', test: (_, contested) => contested },
]

const PAGE = 60

export function AgentToolSet({
  data,
  agentId,
  namespace,
  subjectNamespace,
  onExplain,
}: {
  data: EffectiveToolsAnswer
  agentId: string
  namespace?: string
  subjectNamespace: string
  onExplain: (name: string) => void
}) {
  const [search, setSearch] = useState('')
  const [filter, setFilter] = useState<Filter>('all')
  const [showAll, setShowAll] = useState(false)
  const excluded = useMemo(() => data.excluded ?? [], [data.excluded])
  const groups = useMemo(
    () => groupByName(data.effectiveTools, excluded).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    [data.effectiveTools, excluded],
  )
  const reasons = useMemo(() => repeatedReasons(excluded), [excluded])
  const reasonIndex = useMemo(() => new Map(reasons.map((r, i) => [r.reason, i])), [reasons])

  const counts = { callable: 0, approval: 0, disabled: 0, denied: 0 }
  for (const g of groups) counts[g.verdict]++
  const test = FILTERS.find((f) => f.id === filter)!.test
  const shown = groups.filter((g) => test(g.verdict, g.others.length > 0) && matchesSearch(g, search))
  const visible = showAll ? shown : shown.slice(0, PAGE)

  return (
    <Card
      id="tool-set"
      title={
        <span className="flex flex-wrap items-center gap-2">
          Tool set <span className="font-normal text-slate-500">{groups.length} names</span>
        </span>
      }
      description={
        <span data-testid="tool-set-summary">
          {counts.callable + counts.approval} callable{counts.approval > 0 && ` (${counts.approval} after approval)`}, {counts.disabled} disabled,{' '}
          {counts.denied} denied
          {excluded.length > 0 && `; ${excluded.length} other sources left out`}. One card per name: what a call of it gets, and every other source of the name.
        </span>
      }
      bodyClassName=""
    >
      <div className="space-y-3 border-b border-slate-200 px-3 py-3 sm:px-4">
        <UnresolvedWarnings unresolved={data.unresolved} />
        <div className="flex flex-wrap items-end gap-3">
          <SearchInput
            label="Search tools"
            value={search}
            onChange={setSearch}
            placeholder="name, description or source"
            delayMs={150}
            className="w-full sm:w-72"
          />
          <div role="group" aria-label="Show" className="flex flex-wrap gap-1">
            {FILTERS.map((f) => (
              <button
                key={f.id}
                type="button"
                aria-pressed={filter === f.id}
                onClick={() => setFilter(f.id)}
                className={`h-8 rounded-md border px-2.5 text-xs font-medium ${filter === f.id ? 'border-slate-800 bg-slate-800 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'}`}
              >
                {f.label}
              </button>
            ))}
          </div>
        </div>
      </div>

      {visible.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-500">{groups.length === 0 ? 'This agent has no tools.' : 'No tool matches.'}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Tools by name">
          {visible.map((g) => (
            <ToolNameCard
              key={g.name}
              group={g}
              agentId={agentId}
              namespace={namespace}
              subjectNamespace={subjectNamespace}
              reasonIndex={reasonIndex}
              onExplain={onExplain}
            />
          ))}
        </ul>
      )}
      {shown.length > visible.length && (
        <div className="border-t border-slate-200 px-4 py-2">
          <button type="button" onClick={() => setShowAll(true)} className="text-sm font-medium text-sky-800 hover:underline">
            Show all {shown.length} names
          </button>
        </div>
      )}

      {reasons.length > 0 && (
        <div className="border-t border-slate-200 px-3 py-3 sm:px-4">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Left out for the same reason</h3>
          <ol className="mt-1.5 space-y-1.5">
            {reasons.map((r, i) => (
              <li key={r.reason} id={`left-out-${i}`} className="scroll-mt-4 text-xs text-slate-700" data-testid="repeated-reason">
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-medium">{i + 1}.</span> <span className="break-words">{r.reason}</span>{' '}
                    <Badge tone="gray" title={`${r.names.length} sources left out for this reason`}>
                      ×{r.names.length}
                    </Badge>
                  </summary>
                  <p className="mt-1 break-words pl-4 font-mono text-[11px] text-slate-600">{r.names.join(', ')}</p>
                </details>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  )
}
