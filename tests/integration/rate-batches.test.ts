// Rate limits counted in batches (toolroom_take_rates, lib/gateway/rate-limit.ts): a batch answers
// and counts exactly what its calls would, counted one by one with the one-call function in the same
// order; batches of two processes that lock the same windows from opposite ends never deadlock; and
// calls counted at once through takeRate hold their limit.
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateWindows, takeRate, type RateWindow } from '@/lib/gateway/rate-limit'

const clients: pg.Client[] = []
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  clients.push(client)
  return client
}
let db: pg.Client

beforeAll(async () => {
  db = await connect()
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()))
})

const START = new Date('2026-11-29T05:00:00.000Z')
const window = (scope: string, limit: number, start = START): RateWindow => ({
  scope,
  start,
  expires: new Date(start.getTime() + 120_000),
  limit,
  applies: 'tool',
  length: 'minute',
  retryAfterSeconds: 60,
})
const asJson = (calls: RateWindow[][]) =>
  JSON.stringify(calls.map((windows) => windows.map(({ scope, start, expires, limit }) => ({ scope, start, expires, limit }))))

async function takeRates(client: pg.Client, calls: RateWindow[][]): Promise<number[]> {
  const { rows } = await client.query<{ hits: number[] }>('SELECT toolroom_take_rates($1::jsonb) AS hits', [asJson(calls)])
  return rows[0].hits
}
async function takeRateAlone(windows: RateWindow[]): Promise<number> {
  const { rows } = await db.query<{ hit: number }>('SELECT toolroom_take_rate($1::text[], $2::timestamptz[], $3::timestamptz[], $4::int[]) AS hit', [
    windows.map((w) => w.scope),
    windows.map((w) => w.start),
    windows.map((w) => w.expires),
    windows.map((w) => w.limit),
  ])
  return rows[0].hit
}
async function countsOf(prefix: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ scope: string; count: number }>(
    `SELECT scope, count FROM "GatewayRateCounter" WHERE starts_with(scope, $1) ORDER BY scope`,
    [prefix],
  )
  // A window a call never reached is created at 0 by a batch (every window is locked first) and not
  // at all by the one-call function: the same count either way.
  return Object.fromEntries(rows.filter((r) => r.count > 0).map((r) => [r.scope.slice(prefix.length), r.count]))
}

let run = 0
describe('rate limits counted in batches', () => {
  it('answer and count as the calls would, one at a time, in the same order', async () => {
    // A few windows shared by many calls (as an agent's are), with small limits, so that calls are
    // refused part-way and later calls meet the counts of earlier ones in the same batch.
    const call = fc.uniqueArray(fc.record({ scope: fc.constantFrom('a', 'b', 'c', 'd', 'e'), limit: fc.integer({ min: 0, max: 4 }) }), {
      minLength: 1,
      maxLength: 4,
      selector: (w) => w.scope,
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 25 }),
        async (asked, cuts) => {
          run++
          const batched = `batched-${run}:`
          const alone = `alone-${run}:`
          // Each call's windows in scope order, as rateWindows gives them.
          const callsUnder = (prefix: string) =>
            asked.map((windows) => [...windows].sort((x, y) => (x.scope < y.scope ? -1 : 1)).map((w) => window(prefix + w.scope, w.limit)))

          const expected: number[] = []
          for (const windows of callsUnder(alone)) expected.push(await takeRateAlone(windows))

          const calls = callsUnder(batched)
          const got: number[] = []
          for (let at = 0, i = 0; at < calls.length; i++) {
            const size = cuts[i % cuts.length]
            got.push(...(await takeRates(db, calls.slice(at, at + size))))
            at += size
          }

          expect(got).toEqual(expected)
          expect(await countsOf(batched)).toEqual(await countsOf(alone))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('tells windows apart by instant, not by how their start was written', async () => {
    const sameInstant = [{ scope: 'instant:x', start: '2026-11-29T05:00:00.000Z', expires: '2026-11-29T05:02:00.000Z', limit: 5 }]
    const otherSpelling = [{ scope: 'instant:x', start: '2026-11-29T06:00:00+01:00', expires: '2026-11-29T05:02:00.000Z', limit: 5 }]
    const { rows } = await db.query<{ hits: number[] }>('SELECT toolroom_take_rates($1::jsonb) AS hits', [JSON.stringify([sameInstant, otherSpelling])])
    expect(rows[0].hits).toEqual([0, 0])
    expect(await countsOf('instant:')).toEqual({ x: 2 })
  })

  it('never deadlock when two processes lock the same windows from opposite ends', async () => {
    const [one, two] = [await connect(), await connect()]
    const x = window('deadlock:x', 1_000_000)
    const y = window('deadlock:y', 1_000_000)
    const rounds = 40
    const errors: unknown[] = []
    // Each batch holds both windows' rows until it commits; one process names x first, the other y.
    const runAll = async (client: pg.Client, calls: RateWindow[][]) => {
      for (let i = 0; i < rounds; i++) await takeRates(client, calls).catch((e: unknown) => errors.push(e))
    }
    await Promise.all([runAll(one, [[x], [y]]), runAll(two, [[y], [x]])])
    expect(errors).toEqual([])
    expect(await countsOf('deadlock:')).toEqual({ x: 2 * rounds, y: 2 * rounds })
  })

  it('hold a limit for calls counted at the same moment through takeRate', async () => {
    const agent = `agent-${Date.now().toString(36)}`
    const windows = rateWindows(
      `batch-${Date.now().toString(36)}.tool`,
      { callsPerMinute: 7, callsPerDay: null },
      agent,
      { callsPerMinute: null, callsPerDay: 100 },
      Date.now(),
    )
    const answers = await Promise.all(Array.from({ length: 30 }, () => takeRate(windows)))
    expect(answers.filter((a) => a === null)).toHaveLength(7)
    expect(answers.filter((a) => a !== null).map((a) => [a!.applies, a!.window, a!.limit])).toEqual(Array.from({ length: 23 }, () => ['tool', 'minute', 7]))
  })
})
