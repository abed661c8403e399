'use client'
import Link from 'next/link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { LoadMore } from '@/components/ui/load-more'
import { SearchInput } from '@/components/ui/search-input'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { AgentSpec } from '@/lib/manifests/specs/fleet'
import type { FleetStatus, Resource } from '@/lib/client/api'
import { shortDigest } from '@/lib/client/format'
import { useResourceList } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'
import { useUrlFilters } from '@/lib/client/use-url-filters'

type Agent = Resource<AgentSpec, FleetStatus>
const KEYS = ['namespace', 'q'] as const

function imageName(image: string | undefined) {
  if (!image) return null
  const at = image.indexOf('@')
  return at === -1 ? image : image.slice(0, at)
}

export function AgentsList({ initial }: { initial: Partial<Record<(typeof KEYS)[number], string>> }) {
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const list = useResourceList<Agent>('agents', { namespace: filters.namespace, q: filters.q })

  return (
    <Card bodyClassName="">
      <FilterBar onReset={active ? reset : undefined}>
        <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
        <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder="Agent name…" />
      </FilterBar>
      {list.isPending ? (
        <LoadingState label="Loading agents…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.items.length === 0 ? (
        <EmptyState title={active ? 'No agents match these filters' : 'No agents registered yet'}>
          {!active && (
            <>
              Define one with a <code className="font-mono">kind: Agent</code> manifest on the <Link href="/apply" className="underline">Apply</Link> page.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <Table>
            <THead>
              <tr>
                <Th>Name</Th>
                <Th>Namespace</Th>
                <Th>Unit</Th>
                <Th>Image</Th>
                <Th>Image digest</Th>
                <Th className="text-right">Image tools</Th>
              </tr>
            </THead>
            <TBody>
              {list.items.map((a) => (
                <Tr key={a.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={resourceHref('Agent', a.id)} className="font-medium text-slate-900 hover:underline">
                      {a.metadata.name}
                    </Link>
                    {a.spec.displayName && <div className="text-xs text-slate-500">{a.spec.displayName}</div>}
                  </Td>
                  <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{a.metadata.namespace}</Td>
                  <Td>
                    {a.spec.unit ? (
                      <Link href={resourceHref('Unit', a.spec.unit, a.metadata.namespace)} className="text-slate-700 hover:underline">
                        {a.spec.unit}
                      </Link>
                    ) : (
                      <span className="text-slate-400">—</span>
                    )}
                  </Td>
                  <Td className="max-w-72 truncate font-mono text-xs text-slate-600" title={a.spec.image}>
                    {imageName(a.spec.image) ?? <span className="text-slate-400">—</span>}
                  </Td>
                  <Td className="font-mono text-xs text-slate-600" title={a.status?.imageDigest ?? undefined}>
                    {shortDigest(a.status?.imageDigest)}
                  </Td>
                  <Td className="text-right tabular-nums text-slate-700">{a.status?.imageTools?.count ?? 0}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <LoadMore hasNextPage={list.hasNextPage} isFetchingNextPage={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} shown={list.items.length} />
        </>
      )}
    </Card>
  )
}
