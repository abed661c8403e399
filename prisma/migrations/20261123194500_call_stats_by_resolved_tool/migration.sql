-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "toolKey" TEXT;

-- CreateTable
CREATE TABLE "CallStatInsertLog" (
    "id" BIGSERIAL NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "callIds" UUID[],

    CONSTRAINT "CallStatInsertLog_pkey" PRIMARY KEY ("id")
);


-- Inserted calls are rolled up add-only: the insert trigger logs, per statement and UTC hour, the ids
-- it inserted (one row per statement and hour, append-only, so the gateway never waits on a running
-- rollup), and the rollup adds exactly those calls to the hourly rows. Updates and deletes keep
-- marking their hours for a full recompute.
CREATE OR REPLACE FUNCTION toolroom_call_hours_inserted() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN INSERT INTO "CallStatInsertLog"(hour, "callIds") SELECT date_trunc(''hour'', "startedAt", ''UTC''), array_agg(id) FROM new_calls GROUP BY 1; RETURN NULL; END';

-- Calls recorded before this migration name only a tool id. Within the kept window (8 days) their
-- resolved tool is derived as well as the registry allows: Toolroom's own tools by id, a grant as the
-- Tool of that name in the agent's namespace (or the only Tool of that name), a connector's tool as
-- its listed Tool or its server's tool, a server's tool on the agent's namespace's LanguageTool of
-- that name, an image tool as the calling agent's. The update marks every touched hour for a full
-- recompute, so the figures move to the new keys on the first rollup.
UPDATE "ToolCall" c SET "toolKey" = CASE
    WHEN c.provenance = 'platform' THEN 'Platform/' || c."toolId"
    WHEN c.provenance = 'grant' THEN coalesce(
      (SELECT 'Tool/' || t.namespace || '/' || t.name FROM "Tool" t WHERE t.name = c."toolId" AND t.namespace = c."agentNamespace"),
      (SELECT min('Tool/' || t.namespace || '/' || t.name) FROM "Tool" t WHERE t.name = c."toolId" HAVING count(*) = 1),
      'Unresolved/' || c."toolId")
    WHEN c.provenance LIKE 'connector:%' THEN coalesce(
      (SELECT CASE WHEN EXISTS (SELECT 1 FROM "Tool" t WHERE t.namespace = k.namespace AND t.name = c."toolId")
                   THEN 'Tool/' || k.namespace || '/' || c."toolId"
                   ELSE 'Connector/' || k.namespace || '/' || k.name || '/' || c."toolId" END
       FROM "Connector" k WHERE k.name = substr(c.provenance, 11)),
      'Unresolved/' || c."toolId")
    WHEN c.provenance LIKE 'mcp:%' THEN 'LanguageTool/' || c."agentNamespace" || '/' || substr(c.provenance, 5) || '/' || c."toolId"
    WHEN c.provenance LIKE 'image:%' THEN 'Agent/' || c."agentNamespace" || '/' || c."agentName" || '/' || c."toolId"
    ELSE 'Unresolved/' || c."toolId"
  END
WHERE c."toolKey" IS NULL AND c."startedAt" >= now() - interval '8 days';

-- Hours rolled up under the old keys that the update did not touch are redone as well.
INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT hour FROM "CallStatHourly";
