-- CreateTable
CREATE TABLE "ToolCall" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "agentId" UUID NOT NULL,
    "agentNamespace" TEXT NOT NULL,
    "agentName" TEXT NOT NULL,
    "unit" TEXT,
    "toolId" TEXT NOT NULL,
    "toolNamespace" TEXT NOT NULL,
    "provenance" TEXT NOT NULL,
    "level" "SideEffectLevel",
    "channel" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "latencyMs" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "idempotencyKey" TEXT,
    "args" JSON,
    "result" JSON,
    "requestId" TEXT,

    CONSTRAINT "ToolCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "kind" TEXT,
    "namespace" TEXT,
    "resource" TEXT,
    "resourceId" TEXT,
    "before" JSON,
    "after" JSON,
    "detail" JSON NOT NULL DEFAULT '{}',
    "requestId" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ToolCall_startedAt_idx" ON "ToolCall"("startedAt" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_toolId_startedAt_idx" ON "ToolCall"("toolId", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_agentId_startedAt_idx" ON "ToolCall"("agentId", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_outcome_startedAt_idx" ON "ToolCall"("outcome", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_actorName_at_idx" ON "AuditEvent"("actorName", "at" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_kind_at_idx" ON "AuditEvent"("kind", "at" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_resource_at_idx" ON "AuditEvent"("resource", "at" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_action_at_idx" ON "AuditEvent"("action", "at" DESC);


-- The audit log is append-only, and the database says so: whatever code runs, an UPDATE, DELETE or
-- TRUNCATE of AuditEvent fails.
CREATE FUNCTION toolroom_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN RAISE EXCEPTION ''the audit log is append-only: % on "AuditEvent" is refused'', TG_OP USING ERRCODE = ''insufficient_privilege''; END';

CREATE TRIGGER "AuditEvent_append_only" BEFORE UPDATE OR DELETE ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION toolroom_audit_append_only();
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_audit_append_only();
