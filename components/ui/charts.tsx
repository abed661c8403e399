'use client'
// Chart primitives (recharts, drawn as SVG in the browser). Series are plain arrays of points with
// a `label`; colours follow the portal's palette: slate for volume, red for failures, sky/violet
// for latency percentiles.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

export interface ChartPoint {
  label: string
  [series: string]: number | string | null
}

export interface ChartSeries {
  key: string
  name: string
  color: string
}

const axis = { fontSize: 11, fill: '#64748b' }
const tooltipStyle = { fontSize: 12, borderRadius: 6, borderColor: '#cbd5e1' }

interface ChartProps {
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
  data,
  height = 200,
  valueFormatter,
  children,
}: Omit<ChartProps, 'series'> & { kind: keyof typeof KINDS; children: React.ReactNode }) {
  const { Chart, valueAxisWidth, allowDecimals, cursor } = KINDS[kind]
  return (
    <div style={{ height }} className="w-full" data-chart={kind}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height }}>
        <Chart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={16} />
          <YAxis tick={axis} tickLine={false} axisLine={false} width={valueAxisWidth} allowDecimals={allowDecimals} tickFormatter={valueFormatter} />
          <Tooltip contentStyle={tooltipStyle} cursor={cursor} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
          <Legend wrapperStyle={{ fontSize: 12 }} iconSize={10} />
          {children}
        </Chart>
      </ResponsiveContainer>
    </div>
  )
}

/** Stacked bars (e.g. succeeded and failed calls per day). */
export function StackedBarChart({ series, ...chart }: ChartProps) {
  return (
    <LabelledChart kind="bars" {...chart}>
      {series.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={s.name} stackId="stack" fill={s.color} isAnimationActive={false} />
      ))}
    </LabelledChart>
  )
}

/** Lines over time (e.g. p50 and p95 latency); null points leave gaps. */
export function TimeLineChart({ series, ...chart }: ChartProps) {
  return (
    <LabelledChart kind="lines" {...chart}>
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
