-- Calls by person (docs/design/statistics.md#calls-by-person), read from 7-day totals instead of the
-- hourly rows: summing people × agents × hours rows took 1.3 s at 2 million calls.
--
-- Calls made for nobody no longer get rows of their own in the per-person hourly rollup: the read
-- derives "no person" per agent from the agents' totals less their calls made for people. Those rows
-- repeated the agent-hour rows at the same grain, one more row written per agent and hour a late
-- call lands in.
DELETE FROM "CallStatPersonHourly" WHERE "subject" = '';

-- The per-person, per-agent totals live in CallStat7d under dimension `person`
-- (TOTALS_DIMENSIONS, lib/stats/person-stat-key-sql.ts).
ALTER TABLE "CallStat7d" DROP CONSTRAINT "CallStat7d_dimension_check";
ALTER TABLE "CallStat7d" ADD CONSTRAINT "CallStat7d_dimension_check" CHECK ("dimension" IN ('tool', 'agent', 'unit', 'namespace', 'all', 'person'));

-- The next rollup sums the totals afresh, the people's with them.
UPDATE "CallStatState" SET "totalsWindowEnd" = NULL;
