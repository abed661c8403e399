// Calls by person over the 7-day window (docs/design/statistics.md#calls-by-person): per person the
// calls were made for, their calls, failures, refusals and how many agents acted for them, summed
// from the 7-day totals per person and agent (never from the hourly rows or the call log). Calls made
// for nobody are one row with `onBehalfOf: null` ("no person": agents acting as services).
import 'server-only'
import type { OnBehalfOf } from '@/lib/identity/person'
import { db, sql } from '@/lib/sql'
import { PERSON_TOTALS_DIMENSION, personTotalsKeyPartSql } from './person-stat-key-sql'
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
  const key = (part: 0 | 1 | 2) => personTotalsKeyPartSql(sql.ref('s.key'), part)
  // The rows aliased `s`: their calls, failures and refusals summed.
  const figures = (['calls', 'failures', 'refused'] as const).map((n) => sql<number>`sum(${sql.ref(`s.${n}`)})::int`.as(n))
  // The hours the totals hold (CallStatState), for the names; while a repair has the totals to be
  // summed afresh, the window at `now`.
  const held = <C extends 'totalsWindowStart' | 'totalsWindowEnd'>(column: C) =>
    db.selectFrom('CallStatState').select(column).where('id', '=', 1).where('totalsWindowEnd', 'is not', null)
  const rows = await db
    // Per person and agent, from the totals (person-stat-key-sql.ts): people × agents rows.
    .with('pairs', (qb) =>
      qb
        .selectFrom('CallStat7d as s')
        .select([key(0).as('issuer'), key(1).as('subject'), key(2).as('agentId'), 's.calls', 's.failures', 's.refused'])
        .where('s.dimension', '=', PERSON_TOTALS_DIMENSION)
        .where('s.calls', '>', 0),
    )
    .with('people', (qb) =>
      qb
        .selectFrom('pairs as s')
        .select((eb) => ['s.issuer', 's.subject', ...figures, eb.cast<number>(eb.fn.countAll(), 'integer').as('agents')])
        .$if(issuer !== undefined, (q) => q.where('s.issuer', '=', issuer!))
        .groupBy(['s.issuer', 's.subject']),
    )
    // Calls made for nobody have no rows of their own (the rollup leaves them out: most calls of a
    // fleet of services are such calls, and each would be a row per agent and hour written next to
    // the agent's own): per agent, its totals less its calls made for people.
    .with('for_people', (qb) =>
      qb
        .selectFrom('pairs as s')
        .select(['s.agentId', ...figures])
        .groupBy('s.agentId'),
    )
    .with('for_nobody', (qb) =>
      qb
        .selectFrom('CallStat7d as s')
        .leftJoin('for_people as f', 'f.agentId', 's.key')
        .where('s.dimension', '=', 'agent')
        // greatest(): never below nothing, should the two ever be out of step.
        .select((eb) =>
          (['calls', 'failures', 'refused'] as const).map((n) =>
            eb.fn<number>('greatest', [eb(eb.ref(`s.${n}`), '-', eb.fn.coalesce(`f.${n}`, sql.lit(0))), sql.lit(0)]).as(n),
          ),
        ),
    )
    .with('nobody', (qb) =>
      qb
        .selectFrom('for_nobody as s')
        .select((eb) => [sql.lit('').as('issuer'), sql.lit('').as('subject'), ...figures, eb.cast<number>(eb.fn.countAll(), 'integer').as('agents')])
        .where('s.calls', '>', 0),
    )
    .with('everyone', (qb) =>
      qb
        .selectFrom('people')
        .selectAll()
        .$if(issuer === undefined, (q) => q.unionAll((eb) => eb.selectFrom('nobody').selectAll())),
    )
    .with('page', (qb) =>
      qb
        .selectFrom('everyone')
        .select((eb) => ['issuer', 'subject', 'calls', 'failures', 'refused', 'agents', eb.cast<number>(eb.fn.countAll().over(), 'integer').as('total')])
        .where('calls', '>', 0)
        .orderBy('calls', 'desc')
        .orderBy('failures', 'desc')
        .orderBy('issuer')
        .orderBy('subject')
        .limit(limit),
    )
    .selectFrom('page as p')
    .select((eb) => [
      'p.issuer',
      'p.subject',
      'p.calls',
      'p.failures',
      'p.refused',
      'p.agents',
      'p.total',
      // The name of the latest hour that carried one (within an hour, the greatest): a person renamed
      // at their IdP shows the new name. Looked up for the page's people only, by the hourly rows' key.
      eb
        .selectFrom('CallStatPersonHourly as h')
        .select('h.displayName')
        .whereRef('h.issuer', '=', 'p.issuer')
        .whereRef('h.subject', '=', 'p.subject')
        .where('h.displayName', 'is not', null)
        .where((w) =>
          w.between(
            'h.hour',
            w.fn.coalesce(held('totalsWindowStart'), sql<Date>`${from}::timestamptz`),
            w.fn.coalesce(held('totalsWindowEnd'), sql<Date>`${now}::timestamptz`),
          ),
        )
        .orderBy('h.hour', 'desc')
        .orderBy('h.displayName', 'desc')
        .limit(1)
        .as('displayName'),
    ])
    .orderBy('p.calls', 'desc')
    .orderBy('p.failures', 'desc')
    .orderBy('p.issuer')
    .orderBy('p.subject')
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
