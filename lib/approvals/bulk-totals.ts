// What a bulk decision covers, pure: how many requests, how many are high-risk,
// per level and per tool, and the sum of every summary field that is a number in all requests that
// show it (a month-end run of refunds says how much money it moves). Amounts in different
// currencies are never added up: a `currency` shown beside a field splits its sums.

export interface BulkItem {
  tool: { id: string; level: string | null }
  summary: { field: string; value: string }[]
  highRisk: boolean
}

export interface BulkTotals {
  count: number
  highRisk: number
  byLevel: { level: string; count: number }[]
  byTool: { toolId: string; count: number }[]
  /** Fields numeric wherever they appear, per currency where the requests show one. */
  sums: { field: string; currency: string | null; total: string; count: number }[]
}

const NUMBER = /^-?\d{1,15}(\.\d{1,9})?$/

export function bulkTotals(items: BulkItem[]): BulkTotals {
  const byLevel = new Map<string, number>()
  const byTool = new Map<string, number>()
  const fields = new Map<string, { field: string; currency: string | null; values: string[]; numeric: boolean }>()
  for (const item of items) {
    const level = item.tool.level ?? 'undeclared'
    byLevel.set(level, (byLevel.get(level) ?? 0) + 1)
    byTool.set(item.tool.id, (byTool.get(item.tool.id) ?? 0) + 1)
    const currency = item.summary.find((e) => e.field.toLowerCase() === 'currency')?.value.toUpperCase() ?? null
    for (const { field, value } of item.summary) {
      const key = `${field}\u0000${currency ?? ''}`
      const entry = fields.get(key) ?? { field, currency, values: [], numeric: true }
      entry.values.push(value)
      entry.numeric &&= NUMBER.test(value)
      fields.set(key, entry)
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  return {
    count: items.length,
    highRisk: items.filter((i) => i.highRisk).length,
    byLevel: sorted(byLevel).map(([level, count]) => ({ level, count })),
    byTool: sorted(byTool).map(([toolId, count]) => ({ toolId, count })),
    sums: [...fields.values()]
      .filter((f) => f.numeric)
      .map((f) => ({ field: f.field, currency: f.currency, total: exactSum(f.values), count: f.values.length })),
  }
}

/** Decimal sum of decimal strings without binary rounding (0.1 + 0.2 is 0.3 here). */
function exactSum(values: string[]): string {
  const decimals = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0))
  const scale = 10n ** BigInt(decimals)
  const toScaled = (v: string) => {
    const negative = v.startsWith('-')
    const [whole, fraction = ''] = (negative ? v.slice(1) : v).split('.')
    const n = BigInt(whole) * scale + BigInt((fraction + '0'.repeat(decimals)).slice(0, decimals) || '0')
    return negative ? -n : n
  }
  const total = values.reduce((sum, v) => sum + toScaled(v), 0n)
  const negative = total < 0n
  const abs = negative ? -total : total
  const whole = (abs / scale).toString()
  const fraction = decimals ? `.${(abs % scale).toString().padStart(decimals, '0')}` : ''
  return `${negative ? '-' : ''}${whole}${fraction}`
}
