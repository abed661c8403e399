-- The call log gets a lifetime (docs/design/call-log.md): ToolCall is partitioned by UTC day, so the
-- calls past TOOLROOM_CALL_RETENTION_DAYS leave as whole tables (the worker detaches and drops them),
-- never as a DELETE of millions of rows. A partitioned table's unique keys must hold the partition
-- key, so the primary key becomes (id, startedAt); lookups by id alone probe each day's key index.
--
-- The existing rows are copied into day partitions (one per day that holds calls), the old table is
-- dropped, then the keys, indexes and the statistics triggers are built on the partitioned table.

ALTER TABLE "ToolCall" RENAME TO "ToolCall_unpartitioned";
ALTER TABLE "ToolCall_unpartitioned" RENAME CONSTRAINT "ToolCall_pkey" TO "ToolCall_unpartitioned_pkey";
DROP TRIGGER "ToolCall_hours_inserted" ON "ToolCall_unpartitioned";
DROP TRIGGER "ToolCall_hours_updated" ON "ToolCall_unpartitioned";
DROP TRIGGER "ToolCall_hours_deleted" ON "ToolCall_unpartitioned";
DROP INDEX "ToolCall_startedAt_idx", "ToolCall_toolId_startedAt_idx", "ToolCall_agentId_startedAt_idx", "ToolCall_outcome_startedAt_idx",
  "ToolCall_toolNamespace_startedAt_idx", "ToolCall_channel_startedAt_idx", "ToolCall_failed_toolKey_startedAt_idx";

-- Same columns, defaults, NOT NULLs and CHECKs (ToolCall_channel_check, ToolCall_outcome_check).
CREATE TABLE "ToolCall" (LIKE "ToolCall_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE ("startedAt");

-- The partition of one UTC day, created if missing; returns its name (ToolCall_pYYYYMMDD). The worker
-- calls it for the days ahead, and a writer whose call has no partition yet (a clock ahead, a worker
-- that was down) calls it and writes again. It creates a plain table and attaches it, because
-- ATTACH PARTITION takes only a SHARE UPDATE EXCLUSIVE lock on ToolCall (CREATE TABLE … PARTITION OF
-- would take an ACCESS EXCLUSIVE one and stall every writer); an empty table attaches without a scan.
-- One creator at a time (an advisory lock), so two writers missing the same day do not collide.
CREATE FUNCTION toolroom_call_partition(day date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  part text := 'ToolCall_p' || to_char(day, 'YYYYMMDD');
  attached boolean;
BEGIN
  SELECT true INTO attached FROM pg_inherits WHERE inhrelid = to_regclass(format('public.%I', part)) AND inhparent = 'public."ToolCall"'::regclass;
  IF attached THEN RETURN part; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('toolroom.call-partitions'));
  IF to_regclass(format('public.%I', part)) IS NOT NULL THEN
    SELECT true INTO attached FROM pg_inherits WHERE inhrelid = to_regclass(format('public.%I', part)) AND inhparent = 'public."ToolCall"'::regclass;
    IF attached THEN RETURN part; END IF;
    -- Detached by the retention sweep and not dropped yet: the day is past retention.
    RAISE EXCEPTION 'the call log partition % is being dropped (its day is past TOOLROOM_CALL_RETENTION_DAYS)', part USING ERRCODE = 'object_in_use';
  END IF;
  EXECUTE format('CREATE TABLE public.%I (LIKE public."ToolCall" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
  EXECUTE format('ALTER TABLE public."ToolCall" ATTACH PARTITION public.%I FOR VALUES FROM (%L) TO (%L)', part,
    (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
  RETURN part;
END $$;

SELECT toolroom_call_partition(d) FROM (SELECT DISTINCT ("startedAt" AT TIME ZONE 'UTC')::date AS d FROM "ToolCall_unpartitioned") AS days;
-- The statistics window and ingest reach back 8 days; the worker keeps a week ahead from its first run.
SELECT toolroom_call_partition(d::date) FROM generate_series((now() AT TIME ZONE 'UTC')::date - 8, (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day') AS d;

-- Copied without the statistics triggers: the rollups already counted these calls.
INSERT INTO "ToolCall" SELECT * FROM "ToolCall_unpartitioned";
DROP TABLE "ToolCall_unpartitioned";

ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_pkey" PRIMARY KEY ("id", "startedAt");
CREATE INDEX "ToolCall_startedAt_idx" ON "ToolCall"("startedAt" DESC);
CREATE INDEX "ToolCall_toolId_startedAt_idx" ON "ToolCall"("toolId", "startedAt" DESC);
CREATE INDEX "ToolCall_agentId_startedAt_idx" ON "ToolCall"("agentId", "startedAt" DESC);
CREATE INDEX "ToolCall_outcome_startedAt_idx" ON "ToolCall"("outcome", "startedAt" DESC);
CREATE INDEX "ToolCall_toolNamespace_startedAt_idx" ON "ToolCall"("toolNamespace", "startedAt" DESC);
CREATE INDEX "ToolCall_channel_startedAt_idx" ON "ToolCall"("channel", "startedAt" DESC);
CREATE INDEX "ToolCall_failed_toolKey_startedAt_idx" ON "ToolCall"("toolKey", "startedAt" DESC) WHERE outcome = 'failed';

-- Statement-level triggers with transition tables fire on the partitioned table for rows of every
-- partition (migration 20261122060000_call_stats). Dropping a partition fires none: the statistics
-- keep 8 days, never more than the retention.
CREATE TRIGGER "ToolCall_hours_inserted" AFTER INSERT ON "ToolCall" REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_inserted();
CREATE TRIGGER "ToolCall_hours_updated" AFTER UPDATE ON "ToolCall" REFERENCING NEW TABLE AS new_calls OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_updated();
CREATE TRIGGER "ToolCall_hours_deleted" AFTER DELETE ON "ToolCall" REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_deleted();
