-- AlterTable
ALTER TABLE "LanguageTool" ADD COLUMN     "compliance" JSONB,
ADD COLUMN     "detectedTransport" TEXT,
ADD COLUMN     "serverInfo" JSONB;
-- CreateTable
CREATE TABLE "DiscoveryRun" (
    "id" UUID NOT NULL,
    "subjectKind" TEXT NOT NULL,
    "subjectId" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "digest" TEXT,
    "toolCount" INTEGER,
    "error" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    CONSTRAINT "DiscoveryRun_pkey" PRIMARY KEY ("id")
);
-- CreateTable
CREATE TABLE "SurfaceChange" (
    "id" UUID NOT NULL,
    "subjectKind" TEXT NOT NULL,
    "subjectId" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "runId" UUID,
    "diff" JSON NOT NULL,
    "status" TEXT NOT NULL,
    "proposed" JSON,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "comment" TEXT,
    "detectedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SurfaceChange_pkey" PRIMARY KEY ("id")
);
-- CreateIndex
CREATE INDEX "DiscoveryRun_subjectKind_subjectId_startedAt_idx" ON "DiscoveryRun"("subjectKind", "subjectId", "startedAt" DESC);
-- CreateIndex
CREATE INDEX "DiscoveryRun_startedAt_idx" ON "DiscoveryRun"("startedAt" DESC);
-- CreateIndex
CREATE INDEX "DiscoveryRun_status_startedAt_idx" ON "DiscoveryRun"("status", "startedAt" DESC);
-- CreateIndex
CREATE INDEX "SurfaceChange_subjectKind_subjectId_detectedAt_idx" ON "SurfaceChange"("subjectKind", "subjectId", "detectedAt" DESC);
-- CreateIndex
CREATE INDEX "SurfaceChange_status_detectedAt_idx" ON "SurfaceChange"("status", "detectedAt" DESC);
