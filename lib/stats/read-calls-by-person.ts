// Calls by person over the 7-day window (docs/design/statistics.md#calls-by-person): per person the
// calls were made for, their calls, failures, refusals and how many agents acted for them, summed
// from the hourly per-person rollup (never from the call log). Calls made for nobody are one row
// with `onBehalfOf: null` ("no person": agents acting as services).
import 'server-only'
import type { OnBehalfOf } from '@/lib/identity/person'
import { db, sql } from '@/lib/sql'
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
  const people = db
    .selectFrom('CallStatPersonHourly')
    .select((eb) => [
      'issuer',
      'subject',
      // The name of the latest hour that carried one: a person renamed at their IdP shows the new name.
      sql<string | null>`(array_agg(${eb.ref('displayName')} ORDER BY ${eb.ref('hour')} DESC) FILTER (WHERE ${eb.ref('displayName')} IS NOT NULL))[1]`.as(
        'displayName',
      ),
      eb.cast<number>(eb.fn.sum('calls'), 'integer').as('calls'),
      eb.cast<number>(eb.fn.sum('failures'), 'integer').as('failures'),
      eb.cast<number>(eb.fn.sum('refused'), 'integer').as('refused'),
      eb.cast<number>(eb.fn.count('agentId').distinct(), 'integer').as('agents'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<=', now)
    .$if(issuer !== undefined, (qb) => qb.where('issuer', '=', issuer!))
    .groupBy(['issuer', 'subject'])
  const rows = await db
    .selectFrom(people.as('p'))
    .select((eb) => [
      'issuer',
      'subject',
      'displayName',
      'calls',
      'failures',
      'refused',
      'agents',
      eb.cast<number>(eb.fn.countAll().over(), 'integer').as('total'),
    ])
    .where('calls', '>', 0)
    .orderBy('calls', 'desc')
    .orderBy('failures', 'desc')
    .orderBy('issuer')
    .orderBy('subject')
    .limit(limit)
    .execute()
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
