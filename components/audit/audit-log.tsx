'use client'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { type AuditFilters, auditExportHref } from '@/lib/client/audit-api'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { AuditEventsList } from './audit-events-list'

const KEYS = ['actor', 'action', 'kind', 'namespace', 'resource', 'from', 'to'] as const
export type AuditPageFilters = Partial<Record<(typeof KEYS)[number], string>>

const ACTIONS = [
  'resource.*',
  'resource.created',
  'resource.updated',
  'resource.deleted',
  'image_tools.uploaded',
  'surface_change.*',
  'surface_change.accepted',
  'surface_change.rejected',
  'discovery.refresh_requested',
  'languagetool.*',
  'languagetool.connection_started',
  'languagetool.connected',
  'languagetool.disconnected',
  'secret.*',
  'secret.rotated',
  'secret.reencrypted',
  'auth.*',
  'token.*',
].map((value) => ({ value, label: value.endsWith('*') ? `${value.slice(0, -2)} (all)` : value }))

const KINDS = ['Tool', 'LanguageTool', 'Connector', 'Unit', 'Agent', 'Secret', 'SideEffectPolicy', 'IdentityProvider', 'User', 'ApiToken'].map((value) => ({
  value,
  label: value,
}))

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The page's dates are whole days: "until" a day includes it, so the API gets the next day's start. */
function apiFilters(f: Record<(typeof KEYS)[number], string>): AuditFilters {
  const next = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  return {
    actor: f.actor || undefined,
    action: f.action || undefined,
    kind: f.kind || undefined,
    namespace: f.namespace || undefined,
    resource: f.resource || undefined,
    from: DAY.test(f.from) ? f.from : undefined,
    to: DAY.test(f.to) ? next(f.to) : undefined,
  }
}

function DayInput({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
      {label}
      <input
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900 focus:border-slate-500 focus:outline-none"
      />
    </label>
  )
}

/** The Audit page: every change, decision, sign-in and token action, filtered, with an export. */
export function AuditLog({ initial }: { initial: AuditPageFilters }) {
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const query = apiFilters(filters)
  return (
    <Card
      bodyClassName=""
      title="Events"
      description="Newest first. Open an event for its request id, details and the document before and after. Secret values are never recorded: a Secret's events show its key names."
      actions={
        <a
          href={auditExportHref(query)}
          download
          className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-xs font-medium text-slate-800 shadow-sm hover:bg-slate-50"
          data-testid="audit-export"
        >
          Export JSONL
        </a>
      }
    >
      <FilterBar onReset={active ? reset : undefined}>
        <SearchInput label="Actor" value={filters.actor} onChange={(v) => set('actor', v.trim())} placeholder="exact name" className="w-32" />
        <Select label="Action" value={filters.action} onChange={(v) => set('action', v)} options={ACTIONS} />
        <Select label="Kind" value={filters.kind} onChange={(v) => set('kind', v)} options={KINDS} />
        <SearchInput label="Namespace" value={filters.namespace} onChange={(v) => set('namespace', v.trim())} placeholder="any" className="w-28" />
        <SearchInput label="Resource" value={filters.resource} onChange={(v) => set('resource', v.trim())} placeholder="exact name" className="w-36" />
        <DayInput label="From (UTC day)" value={filters.from} onChange={(v) => set('from', v)} />
        <DayInput label="Until (UTC day)" value={filters.to} onChange={(v) => set('to', v)} />
      </FilterBar>
      <AuditEventsList
        filters={query}
        emptyTitle={active ? 'No events match these filters' : 'Nothing has been recorded yet'}
        emptyHint={active ? undefined : 'Changes made through the API, Apply and the portal appear here as they happen.'}
      />
    </Card>
  )
}
