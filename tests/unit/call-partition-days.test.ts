// lib/call-log/call-partition-days.ts: which days of the call log exist ahead and which are past
// retention, by UTC day (docs/design/call-log.md).
import { describe, expect, it } from 'vitest'
import { daysAhead, oldestKeptDay, partitionDay, partitionsPastRetention } from '@/lib/call-log/call-partition-days'

const NOW = new Date('2026-11-27T23:59:59.999Z')

describe('call log days', () => {
  it('name partitions by UTC day, and nothing else', () => {
    expect(partitionDay('ToolCall_p20261127')).toBe('2026-11-27')
    for (const name of ['ToolCall', 'ToolCall_p2026112', 'ToolCall_p20261127_old', 'AuditEvent_p20261127']) expect(partitionDay(name)).toBeNull()
  })

  it('keep today and the retention before it, and drop only whole older days, oldest first', () => {
    expect(oldestKeptDay(NOW, 30)).toBe('2026-10-28')
    expect(oldestKeptDay(new Date('2026-11-28T00:00:00.000Z'), 30)).toBe('2026-10-29')
    const names = ['ToolCall_p20261028', 'ToolCall_p20261027', 'ToolCall_p20261127', 'ToolCall_p20260101', 'ToolCall']
    expect(partitionsPastRetention(names, NOW, 30)).toEqual(['ToolCall_p20260101', 'ToolCall_p20261027'])
  })

  it('make today and the week ahead, across a month and a year', () => {
    expect(daysAhead(new Date('2026-12-28T12:00:00Z'))).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
      '2027-01-04',
    ])
  })
})
