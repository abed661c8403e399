-- The 7-day totals become a running sum over a range of hours (docs/design/statistics.md#totals):
-- the rollup adds what it changes inside the range and moves the range by the hours that enter and
-- leave it, instead of summing every hourly row of the window each minute. Null: the next rollup
-- sums the window once and records the range.
ALTER TABLE "CallStatState" ADD COLUMN "totalsWindowEnd" TIMESTAMPTZ(3);
