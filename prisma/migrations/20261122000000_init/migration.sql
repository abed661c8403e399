-- CreateEnum
CREATE TYPE "ToolType" AS ENUM ('function', 'rest', 'mcp', 'os');

-- CreateEnum
CREATE TYPE "SideEffectLevel" AS ENUM ('read_only', 'local_write', 'external_write', 'financial', 'communication', 'code_execution', 'privileged');

-- CreateTable
CREATE TABLE "Tool" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "type" "ToolType" NOT NULL,
    "level" "SideEffectLevel",
    "description" TEXT NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'Ready',
    "totalCalls7d" INTEGER NOT NULL DEFAULT 0,
    "failureRate7d" DOUBLE PRECISION,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LanguageTool" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'Pending',
    "toolSchemas" JSON NOT NULL DEFAULT '[]',
    "health" TEXT,
    "lastIntrospectedAt" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LanguageTool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Connector" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Connector_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Unit" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "parent" TEXT,
    "connectors" TEXT[],
    "imageTools" JSON NOT NULL DEFAULT '[]',
    "imageDigest" TEXT,
    "imageToolsSource" TEXT,
    "imageToolsUpdatedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Unit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Agent" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "unit" TEXT,
    "connectors" TEXT[],
    "imageTools" JSON NOT NULL DEFAULT '[]',
    "imageDigest" TEXT,
    "imageToolsSource" TEXT,
    "imageToolsUpdatedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Secret" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "keyId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Secret_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SideEffectPolicy" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "level" "SideEffectLevel" NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SideEffectPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Tool_name_idx" ON "Tool"("name");

-- CreateIndex
CREATE INDEX "Tool_type_idx" ON "Tool"("type");

-- CreateIndex
CREATE INDEX "Tool_level_idx" ON "Tool"("level");

-- CreateIndex
CREATE UNIQUE INDEX "Tool_namespace_name_key" ON "Tool"("namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "LanguageTool_namespace_name_key" ON "LanguageTool"("namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Connector_name_key" ON "Connector"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Connector_namespace_name_key" ON "Connector"("namespace", "name");

-- CreateIndex
CREATE INDEX "Unit_namespace_parent_idx" ON "Unit"("namespace", "parent");

-- CreateIndex
CREATE UNIQUE INDEX "Unit_namespace_name_key" ON "Unit"("namespace", "name");

-- CreateIndex
CREATE INDEX "Agent_namespace_unit_idx" ON "Agent"("namespace", "unit");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_namespace_name_key" ON "Agent"("namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Secret_namespace_name_key" ON "Secret"("namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "SideEffectPolicy_level_key" ON "SideEffectPolicy"("level");

-- CreateIndex
CREATE UNIQUE INDEX "SideEffectPolicy_namespace_name_key" ON "SideEffectPolicy"("namespace", "name");

-- Label selectors and connector bindings are looked up by containment.
CREATE INDEX "Tool_labels_idx" ON "Tool" USING GIN ("labels" jsonb_path_ops);
CREATE INDEX "Agent_labels_idx" ON "Agent" USING GIN ("labels" jsonb_path_ops);
CREATE INDEX "Unit_labels_idx" ON "Unit" USING GIN ("labels" jsonb_path_ops);
CREATE INDEX "Agent_connectors_idx" ON "Agent" USING GIN ("connectors");
CREATE INDEX "Unit_connectors_idx" ON "Unit" USING GIN ("connectors");

-- Every change to a registry table advances one revision and announces it, so caches of derived
-- data (effective tool sets) in any number of web processes know when they are stale, whoever wrote.
CREATE SEQUENCE "registry_revision";

CREATE FUNCTION toolroom_registry_changed() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN PERFORM pg_notify(''toolroom_registry'', nextval(''registry_revision'')::text); RETURN NULL; END';

CREATE TRIGGER "Tool_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Tool" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
CREATE TRIGGER "LanguageTool_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "LanguageTool" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
CREATE TRIGGER "Connector_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Connector" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
CREATE TRIGGER "Unit_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Unit" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
CREATE TRIGGER "Agent_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Agent" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
CREATE TRIGGER "SideEffectPolicy_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "SideEffectPolicy" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
