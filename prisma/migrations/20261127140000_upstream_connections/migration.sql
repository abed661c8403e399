-- Upstream MCP servers that follow MCP authorization: an operator's connection of a LanguageTool
-- (tokens sealed like Secrets), and the connections being made, single-use and short-lived
-- (lib/upstream-auth, docs/design/gateway.md "Connected upstreams").
CREATE TABLE "UpstreamConnection" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "configKey" TEXT NOT NULL,
    "authorizationServer" TEXT NOT NULL,
    "metadata" JSON NOT NULL,
    "resource" TEXT,
    "scopes" TEXT[],
    "clientId" TEXT NOT NULL,
    "ciphertext" BYTEA,
    "keyId" TEXT,
    "expiresAt" TIMESTAMPTZ(3),
    "refreshAt" TIMESTAMPTZ(3),
    "connectedAt" TIMESTAMPTZ(3) NOT NULL,
    "connectedBy" TEXT NOT NULL,
    "refreshedAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "errorDescription" TEXT,
    "failedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UpstreamConnection_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "UpstreamConnection_namespace_name_key" ON "UpstreamConnection"("namespace", "name");

CREATE TABLE "UpstreamAuthorization" (
    "stateHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "configKey" TEXT NOT NULL,
    "authorizationServer" TEXT NOT NULL,
    "metadata" JSON NOT NULL,
    "resource" TEXT,
    "redirectUri" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "keyId" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UpstreamAuthorization_pkey" PRIMARY KEY ("stateHash")
);
