'use client'
// The calls explorer: every recorded tool call, newest first, filtered by agent, tool, tool
// namespace, outcome, channel and time; a row opens the call in a drawer beside the list (its
// upstream's reply, stored arguments and result), and a call's tool id leads to that tool's page.
import { useCallback, useState } from 'react'
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { PagedList } from '@/components/ui/paged-list'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { EmptyState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { dateTime, duration } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'
import type { CallFilters } from '@/lib/client/stats-api'
import { useCalls } from '@/lib/client/stats-hooks'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { CALL_CHANNELS, CALL_OUTCOMES, OUTCOME_LABELS } from '@/lib/stats/call-outcomes'
import { CallDrawer, DRAWER_ROOM } from './call-drawer'
import { OutcomeBadge } from './outcome-badge'
import { Breakable, ToolLink } from './tool-link'

const KEYS = ['agent', 'agentId', 'tool', 'toolKey', 'namespace', 'outcome', 'channel', 'since', 'call'] as const
export type CallsPageFilters = Partial<Record<(typeof KEYS)[number], string>>

const SINCE: Record<string, { label: string; ms: number }> = {
  '1h': { label: 'last hour', ms: 3_600_000 },
  '24h': { label: 'last 24 hours', ms: 86_400_000 },
  '7d': { label: 'last 7 days', ms: 7 * 86_400_000 },
}

export function CallsExplorer({ initial }: { initial: CallsPageFilters }) {
  const { filters, set, patch, reset, active } = useUrlFilters(KEYS, initial)
  const query: Omit<CallFilters, 'from'> = {
    agent: filters.agent,
    agentId: filters.agentId,
    tool: filters.tool,
    toolKey: filters.toolKey,
    namespace: filters.namespace,
    outcome: filters.outcome,
    channel: filters.channel,
  }
  const filtered = active && Object.entries(filters).some(([k, v]) => k !== 'call' && v)
  const close = useCallback(() => set('call', ''), [set])
  const open = useCallback((id: string) => set('call', id), [set])

  return (
    <div className={`space-y-4 ${filters.call ? DRAWER_ROOM : ''}`}>
      {filters.call && <CallDrawer id={filters.call} onClose={close} />}
      <Card bodyClassName="">
        <FilterBar onReset={filtered ? reset : undefined}>
          <SearchInput label="Tool id" value={filters.tool} onChange={(v) => set('tool', v.trim())} placeholder="github.create_issue" className="w-52" />
          <SearchInput
            label="Resolved tool"
            value={filters.toolKey}
            onChange={(v) => set('toolKey', v.trim())}
            placeholder="Tool/<namespace>/<name>"
            className="w-64"
          />
          <SearchInput label="Tool namespace" value={filters.namespace} onChange={(v) => set('namespace', v.trim())} placeholder="github" className="w-36" />
          {/* By name as everywhere (namespace/name, or a name in any namespace); a link with an agent's id shows it here too. */}
          <SearchInput
            label="Agent"
            value={filters.agent || filters.agentId}
            onChange={(v) => patch({ agent: v.trim(), agentId: '' })}
            placeholder="namespace/name"
            className="w-48"
          />
          <Select
            label="Outcome"
            value={filters.outcome}
            onChange={(v) => set('outcome', v)}
            options={CALL_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] }))}
          />
          <Select label="Channel" value={filters.channel} onChange={(v) => set('channel', v)} options={CALL_CHANNELS.map((c) => ({ value: c, label: c }))} />
          <Select
            label="Started"
            value={filters.since}
            onChange={(v) => set('since', v)}
            options={Object.entries(SINCE).map(([value, s]) => ({ value, label: s.label }))}
            allLabel="any time"
          />
        </FilterBar>
        {/* Another range lists afresh (the key), from a start fixed when it was chosen. */}
        <CallsList key={filters.since} query={query} since={filters.since} filtered={filtered} openCall={filters.call} onOpen={open} />
      </Card>
    </div>
  )
}

function CallsList({
  query,
  since,
  filtered,
  openCall,
  onOpen,
}: {
  query: Omit<CallFilters, 'from'>
  since: string
  filtered: boolean
  openCall: string
  onOpen: (id: string) => void
}) {
  // The start of a relative range stays put while it is listed, so pages of one listing agree.
  const [from] = useState(() => (SINCE[since] ? new Date(Date.now() - SINCE[since].ms).toISOString() : undefined))
  const calls = useCalls({ ...query, from })
  // With a call open beside the list, the columns the drawer shows make way for the rest.
  const beside = Boolean(openCall)
  return (
    <PagedList
      list={calls}
      loadingLabel="Loading calls…"
      errorTitle="These filters cannot be used"
      empty={
        <EmptyState title={filtered ? 'No calls match these filters' : 'No calls recorded yet'}>
          {filtered ? null : 'Calls appear here as agents use tools through the gateway.'}
        </EmptyState>
      }
    >
      {(items) => (
        <Table>
          <THead>
            <Tr>
              <Th>Started</Th>
              <Th>Agent</Th>
              <Th>Tool</Th>
              <Th>Outcome</Th>
              {!beside && <Th>Channel</Th>}
              {!beside && <Th className="text-right">Latency</Th>}
              <Th>Error</Th>
            </Tr>
          </THead>
          <TBody>
            {items.map((c) => (
              <Tr
                key={c.id}
                data-call-id={c.id}
                aria-current={openCall === c.id ? 'true' : undefined}
                className={`cursor-pointer hover:bg-slate-50 ${openCall === c.id ? 'bg-sky-50' : ''}`}
                onClick={() => onOpen(c.id)}
              >
                <Td className="whitespace-nowrap text-xs tabular-nums text-slate-600">
                  <button
                    type="button"
                    className="text-left hover:underline"
                    aria-label={`Open the call of ${c.toolId} at ${dateTime(c.startedAt)}`}
                    onClick={(e) => (e.stopPropagation(), onOpen(c.id))}
                  >
                    {dateTime(c.startedAt)}
                  </button>
                </Td>
                <Td className="font-mono text-xs">
                  <IntentLink
                    href={resourceHref('Agent', c.agentName, c.agentNamespace)}
                    className="text-sky-800 [overflow-wrap:anywhere] hover:underline"
                    onClick={(e) => e.stopPropagation()}
                  >
                    <Breakable text={`${c.agentNamespace}/${c.agentName}`} />
                  </IntentLink>
                </Td>
                <Td>
                  <ToolLink toolId={c.toolId} toolKey={c.toolKey} />
                </Td>
                <Td>
                  <OutcomeBadge outcome={c.outcome} />
                </Td>
                {!beside && <Td className="text-xs">{c.channel}</Td>}
                {!beside && <Td className="text-right text-xs tabular-nums">{c.latencyMs !== null ? duration(c.latencyMs) : '—'}</Td>}
                <Td className="max-w-72 text-xs text-red-800" title={c.errorMessage ?? undefined}>
                  <span className="font-mono">{c.errorCode ?? ''}</span>
                  {c.errorMessage && <span className="block truncate text-slate-600">{c.errorMessage}</span>}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </PagedList>
  )
}
