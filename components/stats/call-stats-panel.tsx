'use client'
// 7-day call statistics of one subject (a tool, an agent, a unit, a namespace, or everything): totals,
// calls and failures per day or hour, and latency p50/p95 — all from the hourly rollups.
import { IntentLink } from '@/components/ui/intent-link'
import { useState } from 'react'
import { type ChartPoint, StackedBarChart, TimeLineChart } from '@/components/ui/charts'
import { Card } from '@/components/ui/card'
import { QueryView } from '@/components/ui/states'
import { count, duration, isHighFailureRate, percent } from '@/lib/client/format'
import type { CallStats, StatsSubject } from '@/lib/client/stats-api'
import { useCallStats } from '@/lib/client/stats-hooks'
import { Figure } from './figure'
import { dayLabel, type Grain, GrainToggle, hourLabel } from './grain'

const CALL_SERIES = [
  { key: 'ok', name: 'succeeded or refused', color: '#64748b' },
  { key: 'failures', name: 'failed', color: '#dc2626' },
]
const LATENCY_SERIES = [
  { key: 'p50Ms', name: 'p50', color: '#0284c7' },
  { key: 'p95Ms', name: 'p95', color: '#7c3aed' },
]

function points(stats: CallStats, grain: Grain): ChartPoint[] {
  const rows = grain === 'day' ? stats.byDay.map((d) => ({ ...d, label: dayLabel(d.day) })) : stats.byHour.map((h) => ({ ...h, label: hourLabel(h.hour) }))
  return rows.map((r) => ({ label: r.label, ok: r.calls - r.failures, failures: r.failures, p50Ms: r.p50Ms, p95Ms: r.p95Ms }))
}

export function CallStatsPanel({ subject, title = 'Calls, last 7 days', callsHref }: { subject: StatsSubject; title?: string; callsHref?: string }) {
  const query = useCallStats(subject)
  const [grain, setGrain] = useState<Grain>('day')
  return (
    <Card
      title={title}
      description="Today and the six previous days (UTC), from the hourly rollups; updated every minute. Failures are calls that failed; refusals (denied by policy or by an approver, rate limited, invalid arguments, expired) count as calls."
      actions={
        <>
          {callsHref && (
            <IntentLink href={callsHref} className="text-xs font-medium text-sky-800 hover:underline">
              Browse calls
            </IntentLink>
          )}
          <GrainToggle grain={grain} onChange={setGrain} label="Bucket size" />
        </>
      }
      className="call-stats"
    >
      <QueryView query={query} loadingLabel="Loading statistics…">
        {(stats) => {
          const t = stats.totals
          const data = points(stats, grain)
          return (
            <div className="space-y-4">
              <div className="grid grid-cols-3 gap-3 sm:grid-cols-6">
                <Figure label="Calls" value={count(t.calls)} />
                <Figure label="Failures" value={count(t.failures)} bad={t.failures > 0} />
                {/* Calls that were all refused never ran: that is no failure rate, not 0 %. */}
                <Figure
                  label="Failure rate"
                  value={t.calls > 0 && t.refused === t.calls ? 'none ran' : percent(t.failureRate)}
                  bad={isHighFailureRate(t.failureRate)}
                />
                <Figure label="Refused" value={count(t.refused)} />
                <Figure label="p50 latency" value={duration(t.p50Ms)} />
                <Figure label="p95 latency" value={duration(t.p95Ms)} />
              </div>
              <div className="grid gap-4 lg:grid-cols-2">
                <div>
                  <h3 className="mb-1 text-xs font-semibold text-slate-700">Calls per {grain}</h3>
                  <StackedBarChart label={`Calls per ${grain}`} data={data} series={CALL_SERIES} valueFormatter={count} totals />
                </div>
                <div>
                  <h3 className="mb-1 text-xs font-semibold text-slate-700">Latency per {grain}</h3>
                  <TimeLineChart label={`Latency per ${grain}`} data={data} series={LATENCY_SERIES} valueFormatter={duration} />
                </div>
              </div>
            </div>
          )
        }}
      </QueryView>
    </Card>
  )
}
