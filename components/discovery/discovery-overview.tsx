'use client'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { Select } from '@/components/ui/select'
import { Tabs } from '@/components/ui/tabs'
import type { DiscoverySubjectKind } from '@/lib/client/api'
import { useDiscoveryRuns, useSurfaceChanges } from '@/lib/client/hooks'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { DiscoveryRunsList } from './discovery-runs-card'
import { SurfaceChangesList } from './surface-changes'

const KEYS = ['tab', 'kind', 'status'] as const
export type DiscoveryPageFilters = Partial<Record<(typeof KEYS)[number], string>>

const TABS = ['pending', 'failures', 'runs'] as const
const PAGE = 20
const PENDING = { status: 'pending_review' }
const FAILED = { status: 'failed' }
/** Failures this recent put their tab first: something is failing now, not last month. */
const RECENT_MS = 24 * 3600_000

const KIND_OPTIONS = [
  { value: 'Agent', label: 'Agents' },
  { value: 'Unit', label: 'Units' },
  { value: 'LanguageTool', label: 'MCP servers' },
]
const STATUS_OPTIONS = [
  { value: 'running', label: 'running' },
  { value: 'succeeded', label: 'succeeded' },
  { value: 'failed', label: 'failed' },
]

function RecentRuns({ kind, status, set, reset }: { kind: string; status: string; set: (key: 'kind' | 'status', value: string) => void; reset?: () => void }) {
  const filtered = Boolean(kind || status)
  return (
    <Card bodyClassName="">
      <FilterBar onReset={reset}>
        <Select label="Subject kind" value={kind} onChange={(v) => set('kind', v)} options={KIND_OPTIONS} />
        <Select label="Status" value={status} onChange={(v) => set('status', v)} options={STATUS_OPTIONS} />
      </FilterBar>
      <DiscoveryRunsList
        filters={{ subjectKind: kind as DiscoverySubjectKind | '', status }}
        showSubject
        pageSize={PAGE}
        emptyTitle={filtered ? 'No runs match these filters' : 'No discovery runs yet'}
        emptyHint={
          filtered ? undefined : 'Runs start when agents, units and MCP servers are registered, when an image digest changes, periodically and on request.'
        }
      />
    </Card>
  )
}

/** A tab's count: what its first page holds, with "+" when there is more. */
function Count({ n, more, tone, label }: { n: number; more: boolean; tone: 'amber' | 'red'; label: string }) {
  if (n === 0) return null
  return (
    <Badge tone={tone} title={label}>
      {n}
      {more ? '+' : ''}
    </Badge>
  )
}

/**
 * The Discovery page: held changes to decide, failed runs, and every run with filters. The tabs say
 * how many changes wait and how many runs failed in the last 24 hours; while runs fail, their tab
 * comes first and opens by default.
 */
export function DiscoveryOverview({ initial }: { initial: DiscoveryPageFilters }) {
  const { filters, set, patch } = useUrlFilters(KEYS, initial)
  // The same queries as the lists of the first two tabs, so the counts cost no extra request.
  const pending = useSurfaceChanges(PENDING, PAGE)
  const pendingCount = pending.items.length
  const failed = useDiscoveryRuns(FAILED, PAGE)
  const [since] = useState(() => Date.now() - RECENT_MS)
  const recentFailures = failed.items.filter((r) => Date.parse(r.startedAt) >= since).length
  const failing = recentFailures > 0
  const chosen = (TABS as readonly string[]).includes(filters.tab) ? filters.tab : null
  const tab = chosen ?? (failing ? 'failures' : 'pending')
  const failuresTab = {
    id: 'failures',
    label: (
      <span className="inline-flex items-center gap-1.5">
        Failures
        <Count n={recentFailures} more={recentFailures === failed.items.length && failed.hasNextPage} tone="red" label="failed runs in the last 24 hours" />
      </span>
    ),
    content: (
      <Card
        title="Failed runs"
        description="Newest first. A failed run keeps the subject's previous tools and never blocks a deploy; open a run for its endpoint, step and full error."
        bodyClassName=""
      >
        <DiscoveryRunsList filters={FAILED} showSubject pageSize={PAGE} emptyTitle="No failed runs" emptyHint="Every discovery so far has succeeded." />
      </Card>
    ),
  }
  const tabs = [
    {
      id: 'pending',
      label: (
        <span className="inline-flex items-center gap-1.5">
          Pending reviews
          <Count n={pendingCount} more={pending.hasNextPage} tone="amber" label="changes waiting for a decision" />
        </span>
      ),
      content: (
        <Card
          title="Changes held for review"
          description="Servers with pinning hold changed definitions of tools agents already have. Agents keep the accepted definitions until a change is accepted; rejecting keeps them for good."
          bodyClassName=""
        >
          <SurfaceChangesList
            filters={PENDING}
            showSubject
            pageSize={PAGE}
            emptyTitle="No changes are waiting for review"
            emptyHint="Changes of servers with pinning on appear here when a discovery finds a tool redefined."
          />
        </Card>
      ),
    },
    {
      id: 'runs',
      label: 'Recent runs',
      content: (
        <RecentRuns
          kind={filters.kind}
          status={filters.status}
          set={set}
          reset={filters.kind || filters.status ? () => patch({ kind: '', status: '' }) : undefined}
        />
      ),
    },
  ]
  const [first, ...rest] = tabs
  return (
    <Tabs
      value={tab}
      onChange={(id) => set('tab', id === (failing ? 'failures' : 'pending') ? '' : id)}
      tabs={failing ? [failuresTab, ...tabs] : [first, failuresTab, ...rest]}
    />
  )
}
