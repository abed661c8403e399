import { describe, expect, it } from 'vitest'
import { count, dateTime, isHighFailureRate, percent, timeAgo, zoneName } from '@/lib/client/format'

describe('display formatting', () => {
  const iso = '2026-11-23T14:05:09Z'

  it('prints a date in a named zone, saying which', () => {
    expect(dateTime(iso, 'UTC')).toBe('23 Nov 2026, 14:05 UTC')
    expect(dateTime(iso, 'Pacific/Auckland')).toBe('24 Nov 2026, 03:05 Pacific/Auckland')
  })

  it('prints the same text for the same instant whichever zone was asked for before (formatters are cached per zone)', () => {
    const first = dateTime(iso, 'UTC')
    dateTime(iso, 'America/Los_Angeles')
    expect(dateTime(iso, 'UTC')).toBe(first)
    expect(dateTime(iso, 'America/Los_Angeles')).toBe('23 Nov 2026, 06:05 America/Los_Angeles')
  })

  it('gives back what it cannot read instead of throwing, and a dash for nothing', () => {
    expect(dateTime('not a date', 'UTC')).toBe('not a date')
    expect(dateTime(null)).toBe('—')
    expect(dateTime(undefined, 'UTC')).toBe('—')
  })

  it('names the local zone too, since readers and the server rarely share one', () => {
    // The test process runs in whatever zone the machine has; the text ends with that zone's short name.
    const text = dateTime(iso)
    expect(text).toMatch(/^\d{1,2} \w{3} 2026, \d{2}:\d{2} \S+$/)
    expect(text.endsWith(` ${zoneName(new Date(iso))}`)).toBe(true)
    expect(zoneName(new Date(iso), 'UTC')).toBe('UTC')
    expect(zoneName(new Date(iso), 'Europe/Berlin')).toBe('CET')
    expect(zoneName(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin')).toBe('CEST')
  })

  it('counts with thousands separators', () => {
    expect(count(10_000)).toBe('10,000')
    expect(count(0)).toBe('0')
  })

  it('says how long ago against the clock it is given', () => {
    const now = Date.parse(iso)
    expect(timeAgo('2026-11-23T14:00:09Z', now)).toBe('5 minutes ago')
    expect(timeAgo('2026-11-23T14:05:09Z', now)).toBe('now')
    expect(timeAgo(null, now)).toBe('never')
  })

  it('marks a failure rate above one in twenty, and none when there were no calls', () => {
    expect([null, undefined, 0, 0.05].map(isHighFailureRate)).toEqual([false, false, false, false])
    expect([0.0501, 1].map(isHighFailureRate)).toEqual([true, true])
    expect([null, 0, 0.004, 0.05].map(percent)).toEqual(['—', '0.0%', '0.40%', '5.0%'])
  })
})
