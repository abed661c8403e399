'use client'
// Why one tool fails, over the last 7 days: its failure rate by day or hour, its top error codes and
// messages with counts, which agents see the failures, and its latest failed calls with what the
// upstream answered (each opens in the call drawer). Figures come from the hourly rollups, the latest
// failures from the call log (GET /api/v1/stats/tool-failures).
import { useCallback, useState } from 'react'
import { CallDrawer } from '@/components/calls/call-drawer'
import { Card } from '@/components/ui/card'
import { type ChartPoint, StackedBarChart } from '@/components/ui/charts'
import { IntentLink } from '@/components/ui/intent-link'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { count, dateTime, isHighFailureRate, percent, timeAgo } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'
import type { ToolFailures } from '@/lib/client/stats-api'
import { useToolFailures } from '@/lib/client/stats-hooks'
import { Figure } from './figure'
import { dayLabel, type Grain, GrainToggle, hourLabel } from './grain'

// Bars, not a line: a day or hour without calls has no rate, and a lone point draws no line.
const RATE_SERIES = [{ key: 'failurePercent', name: 'failure rate', color: '#dc2626' }]
const asPercent = (v: number) => `${v}%`
const percentOf = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10)

function trend(stats: ToolFailures['stats'], grain: Grain): ChartPoint[] {
  return grain === 'day'
    ? stats.byDay.map((d) => ({ label: dayLabel(d.day), failurePercent: percentOf(d.failureRate) }))
    : stats.byHour.map((h) => ({ label: hourLabel(h.hour), failurePercent: percentOf(h.failureRate) }))
}

/** An hour bucket of the rollups: the current hour reads "this hour", not "x minutes ago" (its start). */
const hourAgo = (hour: string) => (Date.now() - new Date(hour).getTime() < 3_600_000 ? 'this hour' : timeAgo(hour))

/** The first line of what the upstream answered, for a row; the drawer shows all of it. */
const firstLine = (excerpt: string | null) => (excerpt ? excerpt.split('\n', 1)[0].slice(0, 160) : null)

function ShareBar({ share }: { share: number }) {
  return (
    <span className="mt-1 block h-1.5 w-full rounded-full bg-slate-100" aria-hidden>
      <span className="block h-1.5 rounded-full bg-red-500" style={{ width: `${Math.max(2, Math.round(share * 100))}%` }} />
    </span>
  )
}

function TopErrors({ errors }: { errors: ToolFailures['errors'] }) {
  return (
    <Table>
      <THead>
        <Tr>
          <Th>Error</Th>
          <Th className="w-24 text-right">Failures</Th>
        </Tr>
      </THead>
      <TBody>
        {errors.map((e) => (
          <Tr key={`${e.code}\n${e.message ?? ''}`} data-testid="failure-error-row">
            <Td className="min-w-0">
              <span className="font-mono text-xs text-red-800">{e.code || 'no error code'}</span>
              <span className="block break-words text-xs text-slate-700">{e.message ?? <em className="text-slate-500">other or no message</em>}</span>
              <span className="mt-0.5 block text-[11px] text-slate-600" data-testid="failure-error-seen">
                <span title={`in the hour from ${dateTime(e.firstSeen)}`}>first seen {hourAgo(e.firstSeen)}</span> ·{' '}
                <span title={`in the hour from ${dateTime(e.lastSeen)}`}>last seen {hourAgo(e.lastSeen)}</span>
              </span>
              <ShareBar share={e.share} />
            </Td>
            <Td className="text-right text-xs tabular-nums">
              {count(e.failures)}
              <span className="block text-slate-500">{percent(e.share)}</span>
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  )
}

function ByAgent({ agents, total }: { agents: ToolFailures['agents']; total: number }) {
  return (
    <>
      <Table>
        <THead>
          <Tr>
            <Th>Agent</Th>
            <Th className="text-right">Calls</Th>
            <Th className="text-right">Failures</Th>
            <Th className="text-right">Rate</Th>
          </Tr>
        </THead>
        <TBody>
          {agents.map((a) => (
            <Tr key={a.agentId} data-testid="failure-agent-row">
              <Td className="min-w-0 font-mono text-xs">
                {a.name && a.namespace ? (
                  <IntentLink href={resourceHref('Agent', a.name, a.namespace)} className="break-all text-sky-800 hover:underline">
                    {a.namespace}/{a.name}
                  </IntentLink>
                ) : (
                  <span className="break-all text-slate-600" title="This agent has been deleted since">
                    {a.agentId} (deleted)
                  </span>
                )}
              </Td>
              <Td className="text-right text-xs tabular-nums">{count(a.calls)}</Td>
              <Td className={`text-right text-xs tabular-nums ${a.failures > 0 ? 'text-red-700' : ''}`}>{count(a.failures)}</Td>
              <Td className={`text-right text-xs tabular-nums ${isHighFailureRate(a.failureRate) ? 'font-medium text-red-700' : ''}`}>
                {percent(a.failureRate)}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      {total > agents.length && (
        <p className="px-3 py-2 text-xs text-slate-500">
          The {agents.length} agents with the most failures of {count(total)} that called this tool.
        </p>
      )}
    </>
  )
}

function RecentFailures({ calls, open, onOpen }: { calls: ToolFailures['recent']; open: string | null; onOpen: (id: string) => void }) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Latest failed calls">
      {calls.map((c) => (
        <li key={c.id} data-call-id={c.id} className={open === c.id ? 'bg-sky-50' : ''}>
          <button
            type="button"
            onClick={() => onOpen(c.id)}
            aria-current={open === c.id ? 'true' : undefined}
            className="block w-full px-3 py-2 text-left hover:bg-slate-50"
            aria-label={`Open the failed call of ${c.agentNamespace}/${c.agentName}, ${timeAgo(c.startedAt)}`}
          >
            <span className="flex flex-wrap items-baseline gap-x-3 text-xs">
              <span className="tabular-nums text-slate-600" title={dateTime(c.startedAt)}>
                {timeAgo(c.startedAt)}
              </span>
              <span className="font-mono text-slate-800">
                {c.agentNamespace}/{c.agentName}
              </span>
              <span className="font-mono text-red-800">{c.errorCode}</span>
            </span>
            {c.errorMessage && <span className="mt-0.5 block break-words text-xs text-slate-700">{c.errorMessage}</span>}
            {c.upstreamExcerpt && (
              <code
                className="mt-1 block truncate rounded bg-slate-50 px-1.5 py-0.5 font-mono text-[11px] text-slate-700"
                title="What the upstream answered (redacted)"
              >
                {firstLine(c.upstreamExcerpt)}
              </code>
            )}
          </button>
        </li>
      ))}
    </ul>
  )
}

export function ToolFailureView({ toolKey }: { toolKey: string }) {
  const query = useToolFailures(toolKey)
  const [grain, setGrain] = useState<Grain>('day')
  const [openCall, setOpenCall] = useState<string | null>(null)
  const close = useCallback(() => setOpenCall(null), [])
  const failedCalls = `/calls?toolKey=${encodeURIComponent(toolKey)}&outcome=failed`
  return (
    <Card
      id="failures"
      title="Failures, last 7 days"
      description="Why this tool fails: its failure rate, top errors, which agents see them, and the latest failed calls with what the upstream answered (redacted)."
      actions={
        <>
          <IntentLink href={failedCalls} className="text-xs font-medium text-sky-800 hover:underline">
            All failed calls
          </IntentLink>
          <GrainToggle grain={grain} onChange={setGrain} label="Failure rate per" />
        </>
      }
      className="tool-failures"
    >
      {openCall && <CallDrawer id={openCall} onClose={close} />}
      <QueryView query={query} loadingLabel="Loading failures…">
        {(f) => {
          const t = f.stats.totals
          if (t.failures === 0 && f.recent.length === 0)
            return (
              <EmptyState title="No failed calls in the last 7 days">
                {t.calls > 0
                  ? `${count(t.calls)} calls, none failed${t.refused > 0 ? ` (${count(t.refused)} refused before the tool ran)` : ''}.`
                  : 'No calls recorded yet.'}
              </EmptyState>
            )
          return (
            <div className="space-y-5">
              <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
                <Figure label="Failures" value={count(t.failures)} bad={t.failures > 0} />
                <Figure label="Failure rate" value={percent(t.failureRate)} bad={isHighFailureRate(t.failureRate)} />
                <Figure label="Calls" value={count(t.calls)} />
                <Figure label="Agents" value={count(f.agentsTotal)} />
              </div>
              <div>
                <h3 className="mb-1 text-xs font-semibold text-slate-700">Failure rate per {grain}</h3>
                <StackedBarChart
                  label={`Failure rate per ${grain}`}
                  data={trend(f.stats, grain)}
                  series={RATE_SERIES}
                  valueFormatter={asPercent}
                  height={180}
                />
              </div>
              <div className="grid gap-5 lg:grid-cols-2">
                <div className="min-w-0">
                  <h3 className="mb-1 text-xs font-semibold text-slate-700">Top errors</h3>
                  {f.errors.length ? <TopErrors errors={f.errors} /> : <p className="text-sm text-slate-500">No failures in the window.</p>}
                </div>
                <div className="min-w-0">
                  <h3 className="mb-1 text-xs font-semibold text-slate-700">By agent</h3>
                  {f.agents.length ? <ByAgent agents={f.agents} total={f.agentsTotal} /> : <p className="text-sm text-slate-500">No calls in the window.</p>}
                </div>
              </div>
              <div>
                <h3 className="mb-1 text-xs font-semibold text-slate-700">Latest failures</h3>
                {f.recent.length ? (
                  <RecentFailures calls={f.recent} open={openCall} onOpen={setOpenCall} />
                ) : (
                  <p className="text-sm text-slate-500">None recorded.</p>
                )}
              </div>
            </div>
          )
        }}
      </QueryView>
    </Card>
  )
}
