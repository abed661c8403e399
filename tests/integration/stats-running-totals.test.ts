// The 7-day totals as a running sum (docs/design/statistics.md#totals): a rollup reads the hourly rows
// it changes and those of the hours entering and leaving the window, never the whole window, and the
// totals always equal a fresh sum of the hourly rows over the hours they cover, wherever the clock goes.
import { beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { totalsRange } from '@/lib/stats/stats-window'
import { resetDatabase } from './helpers'
import { insertCalls, resetCalls } from './stats-fixtures'

const HOUR_MS = 3_600_000

const totals = () => prisma.$queryRawUnsafe<unknown[]>(`SELECT dimension, key, calls, failures, refused FROM "CallStat7d" ORDER BY dimension, key`)

/**
 * What the totals at `now` must be: every hourly row of the hours they cover, summed; and per person
 * and agent, their per-person hourly rows (dimension `person`).
 */
const freshSum = (now: Date) => {
  const { first, last } = totalsRange(now)
  return prisma.$queryRawUnsafe<unknown[]>(
    `SELECT * FROM (
       SELECT dimension, key, sum(calls)::int AS calls, sum(failures)::int AS failures, sum(refused)::int AS refused
       FROM "CallStatHourly" WHERE hour BETWEEN $1 AND $2 GROUP BY dimension, key
       UNION ALL
       SELECT 'person', jsonb_build_array(issuer, subject, "agentId")::text, sum(calls)::int, sum(failures)::int, sum(refused)::int
       FROM "CallStatPersonHourly" WHERE hour BETWEEN $1 AND $2 GROUP BY issuer, subject, "agentId"
     ) AS s ORDER BY dimension, key`,
    first,
    last,
  )
}

const allCalls = async () =>
  (await prisma.callStat7d.findUnique({ where: { dimension_key: { dimension: 'all', key: '' } }, select: { calls: true } }))?.calls ?? 0

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
})

describe('7-day totals', () => {
  it('follow the window as it moves forward by hours and days, and back', async () => {
    // Calls over the last 7 days and into the next hours (a clock ahead of ours), a few hundred an hour.
    await insertCalls({ count: 3000, withinHours: 7 * 24, forPeople: true })
    await insertCalls({ count: 40, at: new Date(Date.now() + 2 * HOUR_MS), tool: 'ahead.tool', forPeople: true })
    const now = Date.now()
    // Two days back first: the first run sums afresh, the later ones move the range.
    for (const at of [-2 * 24, -2 * 24 + 1, -24 - 5, -3, 0, 3, -30, 0].map((h) => new Date(now + h * HOUR_MS))) {
      await rollupCallStats(() => at)
      expect(await totals()).toEqual(await freshSum(at))
    }
    expect(await totals()).toContainEqual(expect.objectContaining({ dimension: 'person' }))
  })

  it('reads only the hours that changed: an hourly row nothing touched is not read again', async () => {
    await resetCalls()
    await insertCalls({ count: 500, withinHours: 5 * 24 })
    await rollupCallStats()
    const before = await allCalls()
    expect(before).toBeGreaterThan(0)
    // An hour inside the window that no call, recompute or window move touches from here on, made
    // to disagree with its calls: a rollup that sums the window again would bring the 1,000 in.
    // The fixture's calls leave some hours empty (which ones depends on the minute the test runs at):
    // the hour is one that has a row, about three days back.
    const threeDaysBack = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 3 * 24 * HOUR_MS
    const untouched = await prisma.callStatHourly.findFirstOrThrow({
      where: { dimension: 'all', key: '', hour: { gte: new Date(threeDaysBack - 12 * HOUR_MS), lte: new Date(threeDaysBack + 12 * HOUR_MS) } },
      orderBy: { hour: 'asc' },
      select: { hour: true },
    })
    const tampered = await prisma.callStatHourly.updateMany({
      where: { dimension: 'all', key: '', hour: untouched.hour },
      data: { calls: { increment: 1000 } },
    })
    expect(tampered.count).toBe(1)

    await insertCalls({ count: 1, at: new Date() })
    const run = await rollupCallStats()
    expect(run).toMatchObject({ ran: true, callsAdded: 1, totalsChanged: true })
    expect(await allCalls()).toBe(before + 1)
  })
})
