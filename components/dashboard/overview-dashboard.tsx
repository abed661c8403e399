'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { useQuery } from '@tanstack/react-query'
import { levelBarClass, LEVELS } from '@/components/tools/badges'
import { CallStatsPanel } from '@/components/stats/call-stats-panel'
import { TopFailingTools } from '@/components/stats/top-failing-tools'
import { CallsByPerson } from '@/components/stats/calls-by-person'
import { GettingStarted } from './getting-started'
import { BarList } from '@/components/ui/bar-list'
import { Card } from '@/components/ui/card'
import { QueryView } from '@/components/ui/states'
import { getOverview, type Overview } from '@/lib/client/api'
import { count, humanize } from '@/lib/client/format'
import { queryKeys } from '@/lib/client/query-keys'

const COUNT_CARDS: { key: keyof Overview['counts']; label: string; href?: string }[] = [
  { key: 'agents', label: 'Agents', href: '/agents' },
  { key: 'units', label: 'Units', href: '/units' },
  { key: 'tools', label: 'Tools', href: '/tools' },
  { key: 'languageTools', label: 'LanguageTools', href: '/language-tools' },
  { key: 'connectors', label: 'Connectors', href: '/connectors' },
  // Secrets have no page on purpose: their values are never shown anywhere.
  { key: 'secrets', label: 'Secrets' },
]

const TYPE_BAR: Record<string, string> = { function: 'bg-indigo-500', rest: 'bg-sky-500', mcp: 'bg-violet-500', os: 'bg-orange-500' }
const PHASE_BAR: Record<string, string> = { ready: 'bg-emerald-500', pending: 'bg-slate-400', failed: 'bg-red-600', degraded: 'bg-amber-500' }

const TYPE_ORDER = ['function', 'rest', 'mcp', 'os']

function sortByOrder<T>(items: T[], key: (item: T) => string, order: string[]): T[] {
  const rank = (item: T) => {
    const i = order.indexOf(key(item))
    return i === -1 ? order.length : i
  }
  return [...items].sort((a, b) => rank(a) - rank(b))
}

function CountCard({ label, value, href }: { label: string; value: number; href?: string }) {
  const body = (
    <>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500 break-words">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{count(value)}</p>
    </>
  )
  const cls = 'block rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm'
  return href ? (
    <IntentLink href={href} className={`${cls} hover:border-slate-400`}>
      {body}
    </IntentLink>
  ) : (
    <div className={cls}>{body}</div>
  )
}

function byLevel(data: Overview) {
  const counts = new Map(data.toolsByLevel.map((l) => [l.level, l.count]))
  // Every level is listed, zero or not, so the risk profile keeps its shape across namespaces.
  const levels: string[] = [...LEVELS, ...[...counts.keys()].filter((l) => !(LEVELS as string[]).includes(l))]
  return levels.map((level) => ({
    key: level,
    label: humanize(level),
    count: counts.get(level) ?? 0,
    barClass: levelBarClass(level),
    href: (LEVELS as string[]).includes(level) ? `/tools?level=${level}` : undefined,
  }))
}

export function OverviewDashboard() {
  const query = useQuery({ queryKey: queryKeys.overview(), queryFn: getOverview })
  return (
    <QueryView query={query}>
      {(data) => (
        <div className="space-y-5">
          <GettingStarted facts={data.firstRun} />
          {/* Two across on a phone: "LanguageTools" fits a tile there without breaking inside the word. */}
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            {COUNT_CARDS.map((c) => (
              <CountCard key={c.key} label={c.label} value={data.counts[c.key] ?? 0} href={c.href} />
            ))}
          </div>
          {data.counts.tools + data.counts.agents + data.counts.languageTools === 0 && (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
              The registry is empty.{' '}
              <IntentLink href="/apply" className="font-medium text-slate-900 underline">
                Apply a manifest
              </IntentLink>{' '}
              to register tools, servers and agents.
            </div>
          )}
          <CallStatsPanel subject={{ dimension: 'all' }} title="Every call, last 7 days" callsHref="/calls" />
          <TopFailingTools />
          <CallsByPerson />
          <div className="grid gap-4 lg:grid-cols-3">
            <Card
              title="Tools by side-effect level"
              description="Registered Tool resources; MCP-discovered tools are counted on their server."
              className="lg:col-span-2"
            >
              <BarList items={byLevel(data)} />
            </Card>
            <div className="space-y-4">
              <Card title="Tools by type">
                <BarList
                  items={sortByOrder(data.toolsByType, (t) => t.type, TYPE_ORDER).map((t) => ({
                    key: t.type,
                    label: t.type,
                    count: t.count,
                    barClass: TYPE_BAR[t.type],
                    href: `/tools?type=${t.type}`,
                  }))}
                  emptyLabel="No tools registered"
                />
              </Card>
              <Card title="LanguageTools by phase">
                <BarList
                  items={data.languageToolsByPhase.map((p) => ({ key: p.phase, label: p.phase, count: p.count, barClass: PHASE_BAR[p.phase.toLowerCase()] }))}
                  emptyLabel="No MCP servers registered"
                />
              </Card>
            </div>
          </div>
          {data.namespaces.length > 0 && (
            <p className="text-xs text-slate-500">
              Namespaces:{' '}
              {data.namespaces.map((n, i) => (
                <span key={n}>
                  {i > 0 && ', '}
                  <IntentLink href={`/tools?namespace=${encodeURIComponent(n)}`} className="font-mono hover:text-slate-900 hover:underline">
                    {n}
                  </IntentLink>
                </span>
              ))}
            </p>
          )}
        </div>
      )}
    </QueryView>
  )
}
