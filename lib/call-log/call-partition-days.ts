// Which days of the call log exist and which go (docs/design/call-log.md): pure rules over UTC days
// and partition names. ToolCall holds one partition per UTC day, named ToolCall_pYYYYMMDD by the
// database function toolroom_call_partition (migration 20261127141000_call_partitions).

const DAY_MS = 86_400_000

/** Partitions are created this many days ahead, so a worker down for less than a week loses nothing to on-demand creation. */
export const PARTITION_DAYS_AHEAD = 7

const PARTITION_NAME = /^ToolCall_p(\d{4})(\d{2})(\d{2})$/

/** `YYYY-MM-DD` of a call log partition's day, or null for a table that is not one. */
export function partitionDay(name: string): string | null {
  const m = PARTITION_NAME.exec(name)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** The oldest day kept: today (UTC) less `retentionDays` whole days. */
export function oldestKeptDay(now: Date, retentionDays: number): string {
  return utcDay(new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - retentionDays * DAY_MS))
}

/** Today and the days ahead whose partitions should exist. */
export function daysAhead(now: Date, ahead = PARTITION_DAYS_AHEAD): string[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS
  return Array.from({ length: ahead + 1 }, (_, i) => utcDay(new Date(today + i * DAY_MS)))
}

/** The partitions among `names` whose whole day is older than the retention, oldest first. */
export function partitionsPastRetention(names: string[], now: Date, retentionDays: number): string[] {
  const oldest = oldestKeptDay(now, retentionDays)
  return names
    .map((name) => ({ name, day: partitionDay(name) }))
    .filter((p): p is { name: string; day: string } => p.day !== null && p.day < oldest)
    .sort((a, b) => (a.day < b.day ? -1 : 1))
    .map((p) => p.name)
}
