-- CreateTable
CREATE TABLE "AgentCredential" (
    "id" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AgentCredential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE UNLOGGED TABLE "GatewayRateCounter" (
    "scope" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GatewayRateCounter_pkey" PRIMARY KEY ("scope","windowStart")
);

-- CreateTable
CREATE TABLE "GatewayIdempotency" (
    "agentId" UUID NOT NULL,
    "toolId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "callId" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "outcome" TEXT,
    "result" BYTEA,
    "keyId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GatewayIdempotency_pkey" PRIMARY KEY ("agentId","toolId","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "AgentCredential_hash_key" ON "AgentCredential"("hash");

-- CreateIndex
CREATE INDEX "AgentCredential_agentId_createdAt_idx" ON "AgentCredential"("agentId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "GatewayRateCounter_expiresAt_idx" ON "GatewayRateCounter"("expiresAt");

-- CreateIndex
CREATE INDEX "GatewayIdempotency_expiresAt_idx" ON "GatewayIdempotency"("expiresAt");


-- A credential goes with its agent. A trigger rather than a foreign key, so that TRUNCATE "Agent"
-- (test resets, demo reseeding) keeps working, and a credential whose agent is gone never authenticates
-- anyway (the lookup joins "Agent").
CREATE FUNCTION toolroom_agent_credentials_cleanup() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN DELETE FROM "AgentCredential" WHERE "agentId" = OLD.id; RETURN OLD; END';
CREATE TRIGGER "Agent_credentials_cleanup" AFTER DELETE ON "Agent" FOR EACH ROW EXECUTE FUNCTION toolroom_agent_credentials_cleanup();

-- Rate-limit windows are UNLOGGED: counting needs no WAL flush on the hot path of every call, and
-- after a crash of PostgreSQL the current windows start again from zero, which only ever errs in the
-- caller's favour for one minute (or day).
--
-- toolroom_take_rate counts one call against every given window, or against none: the windows are
-- locked in the order given (callers sort them, so two calls never wait on each other in a cycle),
-- and if any is already at its limit nothing is counted and its 1-based position is returned, and 0 means
-- the call was counted everywhere. One statement, so it holds across any number of gateway processes.
CREATE FUNCTION toolroom_take_rate(scopes text[], windows timestamptz[], expires timestamptz[], limits int[]) RETURNS int LANGUAGE plpgsql AS
  E'DECLARE i int; c int;
  BEGIN
    FOR i IN 1..coalesce(array_length(scopes, 1), 0) LOOP
      INSERT INTO "GatewayRateCounter" (scope, "windowStart", count, "expiresAt") VALUES (scopes[i], windows[i], 0, expires[i])
        ON CONFLICT (scope, "windowStart") DO UPDATE SET count = "GatewayRateCounter".count
        RETURNING count INTO c;
      IF c >= limits[i] THEN RETURN i; END IF;
    END LOOP;
    UPDATE "GatewayRateCounter" g SET count = g.count + 1 FROM unnest(scopes, windows) AS u(scope, w)
      WHERE g.scope = u.scope AND g."windowStart" = u.w;
    RETURN 0;
  END';
