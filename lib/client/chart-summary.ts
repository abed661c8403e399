// A chart said in words, for those who cannot see it (the text alternative of components/ui/charts.tsx):
// its span and, per series, the highest point and, for series that add up (counts), the total. Pure.

interface Point {
  label: string
  [series: string]: number | string | null
}

export function chartSummary(
  label: string,
  data: readonly Point[],
  series: readonly { key: string; name: string }[],
  format: (v: number) => string,
  totals = false,
): string {
  if (data.length === 0) return `${label}: no data.`
  const span = data.length === 1 ? `${data[0].label}` : `${data.length} points from ${data[0].label} to ${data.at(-1)!.label}`
  const parts = series.map((s) => {
    const values = data.flatMap((p) => (typeof p[s.key] === 'number' ? [{ at: p.label, value: p[s.key] as number }] : []))
    if (values.length === 0) return `${s.name}: no values`
    const top = values.reduce((best, v) => (v.value > best.value ? v : best))
    const total = values.reduce((sum, v) => sum + v.value, 0)
    const sum = totals ? `total ${format(total)}, ` : ''
    return `${s.name}: ${sum}highest ${format(top.value)} (${top.at})`
  })
  return `${label}, ${span}. ${parts.join('; ')}.`
}
