// Calls by person over the 7-day window (docs/design/statistics.md#calls-by-person): per person the
// calls were made for, their calls, failures, refusals and how many agents acted for them, summed
// from the hourly per-person rollup (never from the call log). Calls made for nobody are one row
// with `onBehalfOf: null` ("no person": agents acting as services).
import 'server-only'
import { prisma } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import type { OnBehalfOf } from '@/lib/identity/person'
import { failureRate } from './call-outcomes'
import { windowStart } from './stats-window'

export interface PersonCallCount {
  /** The person, as the calls' records name them; null for calls made for nobody. */
  onBehalfOf: OnBehalfOf | null
  calls: number
  failures: number
  refused: number
  failureRate: number | null
  /** How many distinct agents made these calls. */
  agents: number
}

export interface CallsByPerson {
  window: { from: string; to: string }
  /** Most calls first. */
  items: PersonCallCount[]
  /** How many people (and "no person", when any) had calls in the window; `items` holds the first `limit`. */
  total: number
}

/** `issuer`: only the people of this issuer (and so no "no person" row). */
export async function readCallsByPerson(limit: number, { issuer, now = new Date() }: { issuer?: string; now?: Date } = {}): Promise<CallsByPerson> {
  const from = windowStart(now)
  const ofIssuer = issuer === undefined ? Prisma.empty : Prisma.sql`AND issuer = ${issuer}`
  const rows = await prisma.$queryRaw<
    Array<{ issuer: string; subject: string; displayName: string | null; calls: number; failures: number; refused: number; agents: number; total: number }>
  >`
    SELECT issuer, subject, "displayName", calls, failures, refused, agents, count(*) OVER ()::int AS total
    FROM (
      -- The name of the latest hour that carried one: a person renamed at their IdP shows the new name.
      SELECT issuer, subject, (array_agg("displayName" ORDER BY hour DESC) FILTER (WHERE "displayName" IS NOT NULL))[1] AS "displayName",
        sum(calls)::int AS calls, sum(failures)::int AS failures, sum(refused)::int AS refused, count(DISTINCT "agentId")::int AS agents
      FROM "CallStatPersonHourly" WHERE hour >= ${from} AND hour <= ${now} ${ofIssuer}
      GROUP BY issuer, subject
    ) AS p
    WHERE calls > 0
    ORDER BY calls DESC, failures DESC, issuer, subject LIMIT ${limit}`
  return {
    window: { from: from.toISOString(), to: now.toISOString() },
    items: rows.map((r) => ({
      onBehalfOf: r.subject === '' ? null : { issuer: r.issuer, subject: r.subject, displayName: r.displayName ?? r.subject },
      calls: r.calls,
      failures: r.failures,
      refused: r.refused,
      failureRate: failureRate(r.calls, r.failures),
      agents: r.agents,
    })),
    total: rows[0]?.total ?? 0,
  }
}
