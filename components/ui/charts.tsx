'use client'
// Chart primitives (recharts, drawn as SVG in the browser). Series are plain arrays of points with
// a `label`; colours follow the portal's palette: slate for volume, red for failures, sky/violet
// for latency percentiles. Each chart is named (`label`) and says in words what it shows (the
// summary of lib/client/chart-summary.ts), with its points as a table behind a disclosure: the
// SVG itself is hidden from assistive technology, which reads the name, the summary and the table.
import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { chartSummary } from '@/lib/client/chart-summary'

export interface ChartPoint {
  label: string
  [series: string]: number | string | null
}

export interface ChartSeries {
  key: string
  name: string
  color: string
}

// slate-500 as the portal defines it (app/globals.css): 4.5:1 or more on white.
const axis = { fontSize: 11, fill: '#526178' }
// Legend text is one dark colour whatever the series' colour (some, like sky-600, read under 4.5:1); the icon carries the colour.
const legendText = (value: string) => <span style={{ color: 'var(--color-slate-700)' }}>{value}</span>
const tooltipStyle = { fontSize: 12, borderRadius: 6, borderColor: 'var(--color-slate-300)', backgroundColor: 'var(--color-white)' }

interface ChartProps {
  /** The chart's accessible name, e.g. "Calls per day". */
  label: string
  /** Whether the series' points add up (counts of calls, not rates or latencies): the summary then gives totals. */
  totals?: boolean
  data: ChartPoint[]
  series: ChartSeries[]
  height?: number
  valueFormatter?: (v: number) => string
}

// Bars count whole things and shade the hovered column; lines carry fractions (latencies) and keep recharts' hover line.
const KINDS = {
  bars: { Chart: BarChart, valueAxisWidth: 48, allowDecimals: false, cursor: { fill: '#f1f5f9' } },
  lines: { Chart: LineChart, valueAxisWidth: 56, allowDecimals: true, cursor: true },
} as const

/** A chart over the points' labels, full width: grid, axes, tooltip and legend; `children` draw the series. */
function LabelledChart({
  kind,
  label,
  data,
  series,
  height = 200,
  valueFormatter,
  totals = false,
  children,
}: ChartProps & { kind: keyof typeof KINDS; children: React.ReactNode }) {
  const { Chart, valueAxisWidth, allowDecimals, cursor } = KINDS[kind]
  const summaryId = useId()
  const format = valueFormatter ?? ((v: number) => String(v))
  return (
    <figure className="w-full" data-testid="chart">
      <div style={{ height }} className="w-full" data-chart={kind} role="img" aria-label={label} aria-describedby={summaryId}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height }}>
          {/* Room on the right, and the first and last labels kept, so the end labels are not cut off on a phone. */}
          <Chart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis
              dataKey="label"
              tick={axis}
              tickLine={false}
              axisLine={{ stroke: '#cbd5e1' }}
              minTickGap={12}
              interval="preserveStartEnd"
              padding={kind === 'lines' ? { left: 16, right: 16 } : undefined}
            />
            <YAxis tick={axis} tickLine={false} axisLine={false} width={valueAxisWidth} allowDecimals={allowDecimals} tickFormatter={valueFormatter} />
            <Tooltip contentStyle={tooltipStyle} cursor={cursor} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
            <Legend wrapperStyle={{ fontSize: 12 }} iconSize={10} formatter={legendText} />
            {children}
          </Chart>
        </ResponsiveContainer>
      </div>
      <figcaption id={summaryId} className="sr-only">
        {chartSummary(label, data, series, format, totals)}
      </figcaption>
      <details className="mt-1 text-xs text-slate-600">
        <summary className="cursor-pointer select-none py-1 hover:text-slate-900">Show as a table</summary>
        <div className="max-h-60 overflow-auto">
          <table className="w-full text-left tabular-nums">
            <caption className="sr-only">{label}</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  When
                </th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="py-1 pr-3 text-right font-medium">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((point, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <th scope="row" className="py-0.5 pr-3 font-normal">
                    {point.label}
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="py-0.5 pr-3 text-right">
                      {typeof point[s.key] === 'number' ? format(point[s.key] as number) : '—'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

/** Stacked bars (e.g. succeeded and failed calls per day). */
export function StackedBarChart({ series, ...chart }: ChartProps) {
  return (
    <LabelledChart kind="bars" series={series} {...chart}>
      {series.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={s.name} stackId="stack" fill={s.color} isAnimationActive={false} />
      ))}
    </LabelledChart>
  )
}

/** Lines over time (e.g. p50 and p95 latency); null points leave gaps. */
export function TimeLineChart({ series, ...chart }: ChartProps) {
  return (
    <LabelledChart kind="lines" series={series} {...chart}>
      {series.map((s) => (
        <Line
          key={s.key}
          type="monotone"
          dataKey={s.key}
          name={s.name}
          stroke={s.color}
          strokeWidth={2}
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
      ))}
    </LabelledChart>
  )
}
