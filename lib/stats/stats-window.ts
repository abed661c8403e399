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
