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

/** Stacked bars (e.g. succeeded and failed calls per day). */
export function StackedBarChart({
  data,
  series,
  height = 200,
  valueFormatter,
}: {
  data: ChartPoint[]
  series: ChartSeries[]
  height?: number
  valueFormatter?: (v: number) => string
}) {
  return (
    <div style={{ height }} className="w-full" data-chart="bars">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height }}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={16} />
          <YAxis tick={axis} tickLine={false} axisLine={false} width={48} allowDecimals={false} tickFormatter={valueFormatter} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: '#f1f5f9' }} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
          <Legend wrapperStyle={{ fontSize: 12 }} iconSize={10} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} stackId="stack" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

/** Lines over time (e.g. p50 and p95 latency); null points leave gaps. */
export function TimeLineChart({
  data,
  series,
  height = 200,
  valueFormatter,
}: {
  data: ChartPoint[]
  series: ChartSeries[]
  height?: number
  valueFormatter?: (v: number) => string
}) {
  return (
    <div style={{ height }} className="w-full" data-chart="lines">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height }}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={16} />
          <YAxis tick={axis} tickLine={false} axisLine={false} width={56} tickFormatter={valueFormatter} />
          <Tooltip contentStyle={tooltipStyle} formatter={valueFormatter ? (v) => valueFormatter(Number(v)) : undefined} />
          <Legend wrapperStyle={{ fontSize: 12 }} iconSize={10} />
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
        </LineChart>
      </ResponsiveContainer>
    </div>
  )
}
