// The statistics window: "the last 7 days" is today and the six previous days, in UTC, so daily
// buckets are whole calendar days and the hourly series covers exactly the same span. Its length is
// declared with the configuration, which holds the call log's retention to at least that.
import { STATS_WINDOW_DAYS } from '@/lib/config'

export const WINDOW_DAYS = STATS_WINDOW_DAYS
/** Hourly rollups are kept a day longer than the window reaches back. */
export const RETENTION_HOURS = (WINDOW_DAYS + 1) * 24

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** Start (UTC midnight) of the first day in the window that contains `now`. */
export function windowStart(now: Date): Date {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS
  return new Date(today - (WINDOW_DAYS - 1) * DAY_MS)
}

/** Every hour start from the window start through the hour containing `now`. */
export function windowHours(now: Date): Date[] {
  const out: Date[] = []
  const last = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS
  for (let t = windowStart(now).getTime(); t <= last; t += HOUR_MS) out.push(new Date(t))
  return out
}

/** The UTC days of the window, as YYYY-MM-DD, oldest first. */
export function windowDays(now: Date): string[] {
  const start = windowStart(now).getTime()
  return Array.from({ length: WINDOW_DAYS }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10))
}

/** A range of hour starts, both ends included. */
export interface HourRange {
  first: Date
  last: Date
}

/** The hours 7-day totals sum at `now`: from the window's start through the hour containing `now`. */
export function totalsRange(now: Date): HourRange {
  return { first: windowStart(now), last: new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS) }
}

/** Hours to add (sign 1) or take away (sign -1) to turn a sum over one range into a sum over another. */
export interface RangeMove extends HourRange {
  sign: 1 | -1
}

/**
 * What turns totals over `from` into totals over `to`: the hours that leave and the hours that enter,
 * usually an hour at the end and, at UTC midnight, a day at the start. Null when the ranges do not
 * overlap (the totals are then summed afresh, which reads no more).
 */
export function rangeMoves(from: HourRange, to: HourRange): RangeMove[] | null {
  const [a0, a1, b0, b1] = [from.first.getTime(), from.last.getTime(), to.first.getTime(), to.last.getTime()]
  if (a0 > a1 || b0 > b1 || a1 < b0 || b1 < a0) return null
  const part = (first: number, last: number, sign: 1 | -1): RangeMove[] => (first <= last ? [{ first: new Date(first), last: new Date(last), sign }] : [])
  return [
    ...part(a0, Math.min(a1, b0 - HOUR_MS), -1),
    ...part(Math.max(a0, b1 + HOUR_MS), a1, -1),
    ...part(b0, Math.min(b1, a0 - HOUR_MS), 1),
    ...part(Math.max(b0, a1 + HOUR_MS), b1, 1),
  ]
}
