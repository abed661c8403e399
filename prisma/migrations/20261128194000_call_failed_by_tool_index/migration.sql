-- A tool's failed calls, newest first (the calls explorer's `tool` with `outcome=failed`): without
-- this, each day partition ANDed the bitmaps of the toolId and outcome indexes (every call of the
-- tool and every failure of the day) and the whole result was sorted; 190 ms at 4.3 million calls
-- for a tool that fails, 36 ms for one that never does (BENCHMARKS.md, "A tool's failed calls").
-- Partial, like the toolKey one (migration 20261124182000_call_upstream_excerpt): only failed calls
-- pay an entry on the gateway's insert. Created on the partitioned table, so every partition has it,
-- those the worker creates later too.
CREATE INDEX "ToolCall_failed_toolId_startedAt_idx" ON "ToolCall"("toolId", "startedAt" DESC) WHERE outcome = 'failed';
