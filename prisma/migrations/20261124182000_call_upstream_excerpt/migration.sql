-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "upstreamExcerpt" TEXT;

-- The failures of one resolved tool, newest first: the tool failure view's recent failures and the
-- explorer's failed calls of a tool (the link from "Top failing tools"). Only failed calls are in it,
-- so the gateway's writes of every other call do not pay for it. Prisma's schema cannot express a
-- partial index: a generated diff proposes dropping it, and that line is left out of new migrations.
CREATE INDEX "ToolCall_failed_toolKey_startedAt_idx" ON "ToolCall"("toolKey", "startedAt" DESC) WHERE outcome = 'failed';
