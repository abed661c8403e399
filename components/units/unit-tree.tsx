'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { SearchInput } from '@/components/ui/search-input'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { FleetStatus, Resource } from '@/lib/client/api'
import { shortDigest } from '@/lib/client/format'
import { useAllResources } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'
import { filterTree, unitTree } from '@/lib/client/unit-tree'
import { useUrlFilters } from '@/lib/client/use-url-filters'

type Unit = Resource<UnitSpec, FleetStatus>
type Agent = Resource<AgentSpec, FleetStatus>
const KEYS = ['namespace', 'q'] as const

export function UnitTree({ initial }: { initial: Partial<Record<(typeof KEYS)[number], string>> }) {
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const params = filters.namespace ? { namespace: filters.namespace } : {}
  const units = useAllResources<Unit>('units', params)
  const agents = useAllResources<Agent>('agents', params)

  const agentCount = new Map<string, number>()
  for (const a of agents.data ?? [])
    if (a.spec.unit) agentCount.set(`${a.metadata.namespace}/${a.spec.unit}`, (agentCount.get(`${a.metadata.namespace}/${a.spec.unit}`) ?? 0) + 1)
  const q = filters.q.trim().toLowerCase()
  const tree = [...unitTree(units.data ?? [])]
    .map(([ns, rows]) => [ns, q ? filterTree(rows, (u) => u.metadata.name.includes(q) || (u.spec.displayName ?? '').toLowerCase().includes(q)) : rows] as const)
    .filter(([, rows]) => rows.length > 0)

  return (
    <Card bodyClassName="">
      <FilterBar onReset={active ? reset : undefined}>
        <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
        <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder="Unit name…" />
      </FilterBar>
      <QueryView
        query={units}
        loadingLabel="Loading units…"
        isEmpty={() => tree.length === 0}
        empty={
          <EmptyState title={active ? 'No units match these filters' : 'No units defined yet'}>
            {!active && 'Units group agents; bindings, grants and toggles on a unit flow down to everything below it.'}
          </EmptyState>
        }
      >
        {() => (
          <Table>
            <THead>
              <tr>
                <Th>Unit</Th>
                <Th>Connectors</Th>
                <Th className="text-right">Grants</Th>
                <Th className="text-right">Toggles</Th>
                <Th className="text-right">Agents</Th>
                <Th>Image digest</Th>
              </tr>
            </THead>
            <TBody>
              {tree.map(([ns, rows]) => [
                <tr key={`ns-${ns}`} className="bg-slate-50">
                  <td colSpan={6} className="px-3 py-1.5 font-mono text-xs font-semibold text-slate-600">
                    namespace {ns}
                  </td>
                </tr>,
                ...rows.map(({ unit, depth, missingParent }) => (
                  <Tr key={unit.id} data-testid="unit-row" data-unit-name={unit.metadata.name} data-depth={String(depth)} className="hover:bg-slate-50">
                    <Td>
                      <div className="flex items-baseline gap-1.5" style={{ paddingLeft: depth * 22 }}>
                        {depth > 0 && (
                          <span aria-hidden className="text-slate-300">
                            └
                          </span>
                        )}
                        <IntentLink href={resourceHref('Unit', unit.id)} className="font-medium text-slate-900 hover:underline">
                          {unit.metadata.name}
                        </IntentLink>
                        {unit.spec.displayName && <span className="text-xs text-slate-500">{unit.spec.displayName}</span>}
                        {missingParent && (
                          <Badge tone="amber" title="spec.parent names a unit that does not exist in this namespace">
                            parent {missingParent} missing
                          </Badge>
                        )}
                      </div>
                    </Td>
                    <Td className="font-mono text-xs text-slate-600">{unit.spec.connectors?.join(', ') || <span className="text-slate-400">—</span>}</Td>
                    <Td className="text-right tabular-nums text-slate-700">{unit.spec.grants?.length ?? 0}</Td>
                    <Td className="text-right tabular-nums text-slate-700">{Object.keys(unit.spec.toggles ?? {}).length}</Td>
                    <Td className="text-right tabular-nums text-slate-700">{agents.data ? (agentCount.get(`${ns}/${unit.metadata.name}`) ?? 0) : '…'}</Td>
                    <Td className="font-mono text-xs text-slate-600">{shortDigest(unit.status?.imageDigest)}</Td>
                  </Tr>
                )),
              ])}
            </TBody>
          </Table>
        )}
      </QueryView>
    </Card>
  )
}
