'use client'
import Link from 'next/link'
import { NamespaceSelect } from '@/components/resources/namespace-select'
import { HealthBadge, PhaseBadge } from '@/components/resources/status-badges'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { LoadMore } from '@/components/ui/load-more'
import { SearchInput } from '@/components/ui/search-input'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { dateTime, timeAgo } from '@/lib/client/format'
import { useResourceList } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import type { LanguageTool } from './types'

const KEYS = ['namespace', 'q'] as const

export function LanguageToolsList({ initial }: { initial: Partial<Record<(typeof KEYS)[number], string>> }) {
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const list = useResourceList<LanguageTool>('languagetools', { namespace: filters.namespace, q: filters.q })
  return (
    <Card bodyClassName="">
      <FilterBar onReset={active ? reset : undefined}>
        <NamespaceSelect value={filters.namespace} onChange={(v) => set('namespace', v)} />
        <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v)} placeholder="Server name…" />
      </FilterBar>
      {list.isPending ? (
        <LoadingState label="Loading MCP servers…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.items.length === 0 ? (
        <EmptyState title={active ? 'No servers match these filters' : 'No MCP servers registered yet'}>
          {!active && (
            <>
              Register one with a <code className="font-mono">kind: LanguageTool</code> manifest on the <Link href="/apply" className="underline">Apply</Link> page.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <Table>
            <THead>
              <tr>
                <Th>Server</Th>
                <Th>Namespace</Th>
                <Th>Endpoint</Th>
                <Th>Phase</Th>
                <Th>Health</Th>
                <Th className="text-right">Tools</Th>
                <Th>Last introspection</Th>
              </tr>
            </THead>
            <TBody>
              {list.items.map((s) => (
                <Tr key={s.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={resourceHref('LanguageTool', s.id)} className="font-medium text-slate-900 hover:underline">
                      {s.metadata.name}
                    </Link>
                    <div className="text-xs text-slate-500">
                      {s.spec.transport} · {s.spec.deploymentMode}
                    </div>
                  </Td>
                  <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{s.metadata.namespace}</Td>
                  <Td className="max-w-80 truncate font-mono text-xs text-slate-600" title={s.status?.endpoint}>
                    {s.status?.endpoint ?? '—'}
                  </Td>
                  <Td>
                    <PhaseBadge phase={s.status?.phase} />
                  </Td>
                  <Td>
                    <HealthBadge health={s.status?.health} />
                  </Td>
                  <Td className="text-right tabular-nums text-slate-700">{s.status?.toolSchemas?.length ?? 0}</Td>
                  <Td className="text-xs text-slate-600" title={dateTime(s.status?.lastIntrospectedAt)}>
                    {timeAgo(s.status?.lastIntrospectedAt)}
                    {s.status?.lastError && <div className="line-clamp-1 max-w-56 text-red-700" title={s.status.lastError}>{s.status.lastError}</div>}
                  </Td>
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
