-- CreateTable
CREATE TABLE "CallStatToolHourly" (
    "toolKey" TEXT NOT NULL,
    "part" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,
    "refused" INTEGER NOT NULL,

    CONSTRAINT "CallStatToolHourly_pkey" PRIMARY KEY ("toolKey","part","value","detail","hour")
);

-- CreateIndex
CREATE INDEX "CallStatToolHourly_hour_idx" ON "CallStatToolHourly"("hour");

-- The kept hours are recomputed by the next rollup, which fills the breakdowns for calls recorded before.
INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT hour FROM "CallStatHourly";
