-- A Tool's phase is observed from conditions (lib/tools/tool-conditions.ts), no longer assumed Ready.
-- Existing rows keep their phase until the first refresh (every worker refreshes all tools at start).
ALTER TABLE "Tool" ADD COLUMN "conditions" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Tool" ALTER COLUMN "phase" SET DEFAULT 'Pending';
