'use client'
import Link from 'next/link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { LoadMore } from '@/components/ui/load-more'
import { SearchInput } from '@/components/ui/search-input'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { Resource } from '@/lib/client/api'
import { useResourceList } from '@/lib/client/hooks'
import { refHref, resourceHref } from '@/lib/client/links'
import { useUrlFilters } from '@/lib/client/use-url-filters'

export type Connector = Resource<ConnectorSpec>
const KEYS = ['namespace', 'q'] as const

export function ConnectorsList({ initial }: { initial: Partial<Record<(typeof KEYS)[number], string>> }) {
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const list = useResourceList<Connector>('connectors', { namespace: filters.namespace, q: filters.q })
  return (
    <Card bodyClassName="">
      <FilterBar onReset={active ? reset : undefined}>
        <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
        <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder="Slug…" />
      </FilterBar>
      {list.isPending ? (
        <LoadingState label="Loading connectors…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.items.length === 0 ? (
        <EmptyState title={active ? 'No connectors match these filters' : 'No connectors defined yet'}>
          {!active && 'A connector reserves a tool namespace (its slug) and contributes an MCP server’s tools or a set of Tools.'}
        </EmptyState>
      ) : (
        <>
          <Table>
            <THead>
              <tr>
                <Th>Slug</Th>
                <Th>Namespace</Th>
                <Th>Contributes</Th>
                <Th>Description</Th>
              </tr>
            </THead>
            <TBody>
              {list.items.map((c) => (
                <Tr key={c.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={resourceHref('Connector', c.id)} className="font-mono font-medium text-slate-900 hover:underline">
                      {c.metadata.name}
                    </Link>
                    {c.spec.displayName && <div className="text-xs text-slate-500">{c.spec.displayName}</div>}
                  </Td>
                  <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{c.metadata.namespace}</Td>
                  <Td className="text-sm text-slate-700">
                    {c.spec.languageTool && (
                      <div>
                        MCP server{' '}
                        <Link href={refHref('LanguageTool', c.spec.languageTool, c.metadata.namespace)} className="font-mono text-xs text-sky-800 hover:underline">
                          {c.spec.languageTool}
                        </Link>
                      </div>
                    )}
                    {c.spec.tools?.length ? (
                      <div>
                        {c.spec.tools.length} tool{c.spec.tools.length === 1 ? '' : 's'}
                      </div>
                    ) : null}
                  </Td>
                  <Td className="max-w-md text-xs text-slate-600">{c.spec.description}</Td>
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
