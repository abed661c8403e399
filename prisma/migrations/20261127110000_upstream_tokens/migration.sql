-- Access tokens fetched from upstreams' authorization servers (client credentials), sealed like
-- Secrets: one row per credential, also the point refreshes serialize on (lib/upstream-auth).
CREATE TABLE "UpstreamToken" (
    "key" TEXT NOT NULL,
    "ciphertext" BYTEA,
    "keyId" TEXT,
    "expiresAt" TIMESTAMPTZ(3),
    "refreshAt" TIMESTAMPTZ(3),
    "fetchedAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "errorDescription" TEXT,
    "failedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UpstreamToken_pkey" PRIMARY KEY ("key")
);
