-- Calls by person (docs/design/statistics.md): per person the call was made for, calling agent and
-- UTC hour, written by the statistics rollup in the same pass as the other hourly rows, so the 7-day
-- figures by person never group the call log itself. Calls made for nobody are kept under the empty
-- issuer and subject ("no person": the agent acted as a service).
CREATE TABLE "CallStatPersonHourly" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "displayName" TEXT,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,
    "refused" INTEGER NOT NULL,

    CONSTRAINT "CallStatPersonHourly_pkey" PRIMARY KEY ("issuer","subject","agentId","hour")
);

CREATE INDEX "CallStatPersonHourly_hour_idx" ON "CallStatPersonHourly"("hour");

-- The kept hours are recomputed by the next rollup, which fills the new rows for calls recorded before.
INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT hour FROM "CallStatHourly";
