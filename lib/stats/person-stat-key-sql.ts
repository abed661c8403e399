// The 7-day totals of calls made for people (docs/design/statistics.md#calls-by-person) are kept in
// CallStat7d beside the dimensions, one row per person and calling agent: dimension `person`, the
// key the three of them as a JSON array (issuer and subject are any text an IdP sends, so no
// separator is safe). The rollup writes them from the per-person hourly rows; the by-person read
// sums them per person, so it reads people × agents rows, not people × agents × hours.
import 'server-only'
import { type Expression, type RawBuilder, sql } from 'kysely'
import { STAT_DIMENSIONS } from './read-call-stats'

/** CallStat7d's dimension for per-person, per-agent totals: not a STAT_DIMENSIONS value (no hourly rows of its own). */
export const PERSON_TOTALS_DIMENSION = 'person'
/** What CallStat7d's dimension may hold (a CHECK in the database). */
export const TOTALS_DIMENSIONS = [...STAT_DIMENSIONS, PERSON_TOTALS_DIMENSION] as const

/** The CallStat7d key of a person's calls through one agent. */
export const personTotalsKeySql = (issuer: Expression<string>, subject: Expression<string>, agentId: Expression<string>): RawBuilder<string> =>
  sql<string>`jsonb_build_array(${issuer}, ${subject}, ${agentId})::text`

/** One part of such a key: 0 the issuer, 1 the subject, 2 the agent's id. */
export const personTotalsKeyPartSql = (key: Expression<string>, part: 0 | 1 | 2): RawBuilder<string> => sql<string>`(${key}::jsonb ->> ${sql.lit(part)})`
