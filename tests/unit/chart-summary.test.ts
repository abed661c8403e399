// A chart's text alternative (lib/client/chart-summary.ts): its span, and per series the highest point
// and, for counts, the total; missing points are left out, not read as zero.
import { describe, expect, it } from 'vitest'
import { chartSummary } from '@/lib/client/chart-summary'

const calls = [
  { label: 'Nov 25', ok: 120, failures: 3 },
  { label: 'Nov 26', ok: 340, failures: 0 },
  { label: 'Nov 27', ok: 80, failures: 9 },
]
const series = [
  { key: 'ok', name: 'succeeded or refused' },
  { key: 'failures', name: 'failed' },
]

describe('chart summaries', () => {
  it('give the span, the highest point and, for counts, the total of each series', () => {
    expect(chartSummary('Calls per day', calls, series, (v) => v.toLocaleString('en'), true)).toBe(
      'Calls per day, 3 points from Nov 25 to Nov 27. succeeded or refused: total 540, highest 340 (Nov 26); failed: total 12, highest 9 (Nov 27).',
    )
  })

  it('give no totals for rates, skip points without a value, and say when there is nothing', () => {
    const rates = [
      { label: '09:00', rate: null },
      { label: '10:00', rate: 12.5 },
    ]
    expect(chartSummary('Failure rate per hour', rates, [{ key: 'rate', name: 'failure rate' }], (v) => `${v}%`)).toBe(
      'Failure rate per hour, 2 points from 09:00 to 10:00. failure rate: highest 12.5% (10:00).',
    )
    expect(chartSummary('Latency per day', [{ label: 'Nov 27', p50: null }], [{ key: 'p50', name: 'p50' }], String)).toBe(
      'Latency per day, Nov 27. p50: no values.',
    )
    expect(chartSummary('Calls per day', [], series, String)).toBe('Calls per day: no data.')
  })
})
