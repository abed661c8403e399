-- CreateTable
CREATE TABLE "CallStatHourly" (
    "dimension" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,
    "refused" INTEGER NOT NULL,
    "latencyCount" INTEGER NOT NULL,
    "latencySumMs" BIGINT NOT NULL,
    "latencyHistogram" INTEGER[],

    CONSTRAINT "CallStatHourly_pkey" PRIMARY KEY ("dimension","key","hour")
);

-- CreateTable
CREATE TABLE "CallStatDirtyHour" (
    "id" BIGSERIAL NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CallStatDirtyHour_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CallStat7d" (
    "dimension" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,
    "refused" INTEGER NOT NULL,

    CONSTRAINT "CallStat7d_pkey" PRIMARY KEY ("dimension","key")
);

-- CreateTable
CREATE TABLE "CallStatState" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "computedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "totalsWindowStart" TIMESTAMPTZ(3),

    CONSTRAINT "CallStatState_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CallStatHourly_hour_idx" ON "CallStatHourly"("hour");

-- CreateIndex
CREATE INDEX "CallStat7d_dimension_failures_idx" ON "CallStat7d"("dimension", "failures" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_toolNamespace_startedAt_idx" ON "ToolCall"("toolNamespace", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_channel_startedAt_idx" ON "ToolCall"("channel", "startedAt" DESC);


-- Which hours need rolling up is recorded by the database itself, so a call written late (an
-- ingested call with an old startedAt), changed (an approval outcome) or removed is noticed
-- whoever wrote it. Statement-level triggers log each touched UTC hour once per statement, and the log
-- is append-only (no unique key), so the gateway's inserts never wait on a running rollup.
CREATE FUNCTION toolroom_call_hours_inserted() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT date_trunc(''hour'', "startedAt", ''UTC'') FROM new_calls; RETURN NULL; END';

CREATE FUNCTION toolroom_call_hours_updated() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN INSERT INTO "CallStatDirtyHour"(hour) SELECT date_trunc(''hour'', "startedAt", ''UTC'') FROM new_calls UNION SELECT date_trunc(''hour'', "startedAt", ''UTC'') FROM old_calls; RETURN NULL; END';

CREATE FUNCTION toolroom_call_hours_deleted() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT date_trunc(''hour'', "startedAt", ''UTC'') FROM old_calls; RETURN NULL; END';

CREATE TRIGGER "ToolCall_hours_inserted" AFTER INSERT ON "ToolCall" REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_inserted();
CREATE TRIGGER "ToolCall_hours_updated" AFTER UPDATE ON "ToolCall" REFERENCING NEW TABLE AS new_calls OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_updated();
CREATE TRIGGER "ToolCall_hours_deleted" AFTER DELETE ON "ToolCall" REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION toolroom_call_hours_deleted();

-- Calls recorded before this migration are rolled up by the first run.
INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT date_trunc('hour', "startedAt", 'UTC') FROM "ToolCall" WHERE "startedAt" >= now() - interval '8 days';

INSERT INTO "CallStatState"(id, version) VALUES (1, 0);

-- The rollup writes Tool.totalCalls7d/failureRate7d every time the numbers move. Those writes must
-- not announce a registry change (that would drop every cached effective tool set each minute: the
-- answers take their stats from the stats cache instead), so the rollup's transaction sets
-- toolroom.stats_write and the announcement skips it.
CREATE OR REPLACE FUNCTION toolroom_registry_changed() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN IF TG_TABLE_NAME = ''Tool'' AND current_setting(''toolroom.stats_write'', true) = ''on'' THEN RETURN NULL; END IF; PERFORM pg_notify(''toolroom_registry'', nextval(''registry_revision'')::text); RETURN NULL; END';
