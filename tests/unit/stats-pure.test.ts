import { describe, expect, it } from 'vitest'
import {
  addHistogram,
  emptyHistogram,
  LATENCY_BUCKET_COUNT,
  LATENCY_THRESHOLDS,
  latencyBucketBounds,
  latencyBucketOf,
  percentileOf,
} from '@/lib/stats/latency-buckets'
import { type HourRange, rangeMoves, totalsRange, windowDays, windowHours, windowStart } from '@/lib/stats/stats-window'

// A small deterministic generator, so a failure can be reproduced.
function lcg(seed: number) {
  let s = seed
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
}

const exactPercentile = (sorted: number[], p: number) => sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]

describe('latency buckets', () => {
  it('are 1 ms wide up to 8 ms, then grow by at most 2^(1/4), up to 10 minutes', () => {
    expect(LATENCY_THRESHOLDS.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    for (let i = 1; i < LATENCY_THRESHOLDS.length; i++) {
      expect(LATENCY_THRESHOLDS[i]).toBeGreaterThan(LATENCY_THRESHOLDS[i - 1])
      if (LATENCY_THRESHOLDS[i - 1] >= 8) expect(LATENCY_THRESHOLDS[i] / LATENCY_THRESHOLDS[i - 1]).toBeLessThanOrEqual(1.25)
    }
    expect(LATENCY_THRESHOLDS.at(-1)).toBeLessThanOrEqual(600_000)
    expect(LATENCY_BUCKET_COUNT).toBe(LATENCY_THRESHOLDS.length + 1)
  })

  it('put a latency where PostgreSQL width_bucket would: the count of thresholds at or below it', () => {
    for (const ms of [0, 1, 7, 8, 9, 10, 99, 1000, 599_999, 600_000, 10_000_000]) {
      expect(latencyBucketOf(ms)).toBe(LATENCY_THRESHOLDS.filter((t) => t <= ms).length)
      const [lower, upper] = latencyBucketBounds(latencyBucketOf(ms))
      expect(ms).toBeGreaterThanOrEqual(lower)
      if (latencyBucketOf(ms) < LATENCY_THRESHOLDS.length) expect(ms).toBeLessThan(upper)
    }
  })

  it('give p50 and p95 in the bucket of the exact value, exact below 8 ms and within 19% above', () => {
    const random = lcg(7)
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 2000)
      const spread = [5, 50, 5000, 300_000][trial % 4]
      const values = Array.from({ length: n }, () => Math.floor(Math.exp(random() * Math.log(spread + 1))))
      const histogram = emptyHistogram()
      for (const v of values) histogram[latencyBucketOf(v)]++
      const sorted = [...values].sort((a, b) => a - b)
      for (const p of [0.5, 0.95]) {
        const exact = exactPercentile(sorted, p)
        const estimate = percentileOf(histogram, p)!
        expect(latencyBucketOf(Math.floor(estimate))).toBe(latencyBucketOf(exact))
        if (exact < 8) expect(estimate).toBe(exact)
        else expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.19)
      }
    }
  })

  it('merge by adding counts, and say nothing about nothing', () => {
    expect(percentileOf(emptyHistogram(), 0.5)).toBeNull()
    const a = emptyHistogram()
    a[3] = 2
    expect(addHistogram(addHistogram(emptyHistogram(), a), [0, 0, 0, 1])[3]).toBe(3)
  })
})

describe('the 7-day window', () => {
  it('is today and the six previous UTC days, hour by hour up to now', () => {
    const now = new Date('2026-11-22T05:30:00Z')
    expect(windowStart(now).toISOString()).toBe('2026-11-16T00:00:00.000Z')
    expect(windowDays(now)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'])
    const hours = windowHours(now)
    expect(hours).toHaveLength(6 * 24 + 6)
    expect(hours.at(-1)!.toISOString()).toBe('2026-11-22T05:00:00.000Z')
  })
})

describe('moving the 7-day totals', () => {
  const H = 3_600_000
  const base = Date.UTC(2026, 10, 20)
  const range = (first: number, last: number): HourRange => ({ first: new Date(base + first * H), last: new Date(base + last * H) })
  const hoursOf = (r: HourRange) => Array.from({ length: (r.last.getTime() - r.first.getTime()) / H + 1 }, (_, i) => r.first.getTime() + i * H)

  it('cover the hours from the window start through the hour of now', () => {
    expect(totalsRange(new Date('2026-11-28T04:35:10Z'))).toEqual({ first: new Date('2026-11-22T00:00:00Z'), last: new Date('2026-11-28T04:00:00Z') })
  })

  it('take away exactly the hours that leave and add those that enter, for every pair of overlapping ranges', () => {
    for (let a0 = 0; a0 < 6; a0++)
      for (let a1 = a0; a1 < 6; a1++)
        for (let b0 = 0; b0 < 6; b0++)
          for (let b1 = b0; b1 < 6; b1++) {
            const from = range(a0, a1)
            const to = range(b0, b1)
            const moves = rangeMoves(from, to)
            if (a1 < b0 || b1 < a0) {
              expect(moves).toBeNull()
              continue
            }
            const count = new Map<number, number>(hoursOf(from).map((h) => [h, 1]))
            for (const move of moves!) for (const h of hoursOf(move)) count.set(h, (count.get(h) ?? 0) + move.sign)
            expect([...count].filter(([, n]) => n !== 0).sort(([x], [y]) => x - y)).toEqual(hoursOf(to).map((h) => [h, 1]))
          }
  })

  it('is nothing when the range stays, an hour when now crosses one, and a day and an hour at UTC midnight', () => {
    const at = (iso: string) => totalsRange(new Date(iso))
    expect(rangeMoves(at('2026-11-28T04:10:00Z'), at('2026-11-28T04:50:00Z'))).toEqual([])
    expect(rangeMoves(at('2026-11-28T04:10:00Z'), at('2026-11-28T05:01:00Z'))).toEqual([
      { first: new Date('2026-11-28T05:00:00Z'), last: new Date('2026-11-28T05:00:00Z'), sign: 1 },
    ])
    expect(rangeMoves(at('2026-11-28T23:59:00Z'), at('2026-11-29T00:00:00Z'))).toEqual([
      { first: new Date('2026-11-22T00:00:00Z'), last: new Date('2026-11-22T23:00:00Z'), sign: -1 },
      { first: new Date('2026-11-29T00:00:00Z'), last: new Date('2026-11-29T00:00:00Z'), sign: 1 },
    ])
  })
})
