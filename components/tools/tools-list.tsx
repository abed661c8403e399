'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { ApplyHint, ResourceListCard } from '@/components/resources/resource-list-card'
import { PhaseBadge } from '@/components/resources/status-badges'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { Td } from '@/components/ui/table'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Resource } from '@/lib/client/api'
import { count, humanize, percent } from '@/lib/client/format'
import { useResourceList } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { ApprovalBadge, LevelBadge, LEVELS, TypeBadge } from './badges'
import type { ToolConditionView } from './tool-conditions'
import { phaseProblems } from '@/lib/tools/tool-conditions'

export type ToolStatus = { phase?: string; conditions?: ToolConditionView[]; totalCalls7d?: number; failureRate7d?: number | null }
type Tool = Resource<ToolSpec, ToolStatus>
const KEYS = ['namespace', 'type', 'level', 'q', 'label', 'sort'] as const
const TYPES = ['function', 'rest', 'mcp', 'os']

export function ToolsList({ initial }: { initial: Partial<Record<(typeof KEYS)[number], string>> }) {
  const filterState = useUrlFilters(KEYS, initial)
  const { filters, set } = filterState
  // The API wants `key=value`; half-typed labels would be refused, so they wait until they have an `=`.
  const label = /^[^=]+=[^=]*$/.test(filters.label.trim()) ? filters.label.trim() : undefined
  const list = useResourceList<Tool>('tools', {
    namespace: filters.namespace,
    type: filters.type,
    level: filters.level,
    q: filters.q,
    label,
    sort: filters.sort || undefined,
  })

  return (
    <ResourceListCard
      list={list}
      filterState={{ active: KEYS.some((k) => k !== 'sort' && filters[k] !== ''), reset: filterState.reset }}
      sort={{ value: filters.sort, set: (v) => set('sort', v) }}
      filters={
        <>
          <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
          <Select
            label="Type"
            value={filters.type}
            onChange={(v) => set('type', v)}
            options={TYPES.map((t) => ({ value: t, label: t }))}
            allLabel="All types"
          />
          <Select
            label="Side-effect level"
            value={filters.level}
            onChange={(v) => set('level', v)}
            options={LEVELS.map((l) => ({ value: l, label: humanize(l) }))}
            allLabel="All levels"
          />
          <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder="Name or description…" />
          <SearchInput label="Label" value={filters.label} onChange={(v) => set('label', v)} placeholder="key=value" className="w-40 font-mono" />
        </>
      }
      loadingLabel="Loading tools…"
      empty={{ filtered: 'No tools match these filters', unfiltered: 'No tools registered yet', hint: <ApplyHint kind="Tool" /> }}
      columns={[
        { label: 'Tool', sort: 'name' },
        { label: 'Namespace', sort: 'namespace' },
        'Type',
        'Side effects',
        'Phase',
        { label: 'Calls 7d', className: 'text-right' },
        { label: 'Failure rate', className: 'text-right' },
      ]}
      rowAttributes={(t) => ({ 'data-testid': 'tool-row', 'data-tool-name': t.metadata.name })}
      renderRow={(t) => (
        <>
          <Td className="max-w-md">
            <IntentLink href={resourceHref('Tool', t.id)} className="font-mono text-[13px] font-medium text-slate-900 hover:underline">
              {t.metadata.name}
            </IntentLink>
            <p className="line-clamp-1 text-xs text-slate-500" title={t.spec.description}>
              {t.spec.description}
            </p>
            {Object.keys(t.metadata.labels).length > 0 && (
              <div className="mt-1 flex flex-wrap gap-1">
                {Object.entries(t.metadata.labels).map(([k, v]) => (
                  <button
                    key={k}
                    type="button"
                    title="Filter by this label"
                    onClick={() => set('label', `${k}=${v}`)}
                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-600 ring-1 ring-inset ring-slate-200 hover:bg-slate-200"
                  >
                    {k}={v}
                  </button>
                ))}
              </div>
            )}
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{t.metadata.namespace}</Td>
          <Td>
            <TypeBadge type={t.spec.type} />
          </Td>
          <Td>
            <span className="flex flex-wrap gap-1">
              <LevelBadge level={t.spec.sideEffects?.level} />
              <ApprovalBadge required={t.spec.sideEffects?.requiresApproval === true} source="tool" />
            </span>
          </Td>
          <Td>
            <PhaseBadge phase={t.status?.phase} why={phaseProblems(t.status?.conditions ?? [])[0]?.message} />
          </Td>
          <Td className="text-right tabular-nums text-slate-700">
            {t.status?.totalCalls7d ? count(t.status.totalCalls7d) : <span className="text-slate-400">0</span>}
          </Td>
          <Td className="text-right tabular-nums text-slate-700">
            {t.status?.totalCalls7d ? percent(t.status.failureRate7d) : <span className="text-slate-400">—</span>}
          </Td>
        </>
      )}
    />
  )
}
