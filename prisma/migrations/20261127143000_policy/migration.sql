-- Policies: rules with CEL conditions layered on Tool safety (docs/design/policy.md). They are part
-- of the registry: the gateway compiles them once per registry epoch, so writes announce a change.
CREATE TABLE "Policy" (
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

    CONSTRAINT "Policy_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "Policy_namespace_name_key" ON "Policy"("namespace", "name");

CREATE TRIGGER "Policy_registry_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Policy" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
