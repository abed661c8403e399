-- People, and the agents that act for them (docs/design/access.md#on-whose-behalf): trusted identity
-- providers, the tokens token exchange issues, the subject tokens already exchanged, and on whose
-- behalf each call and each approval request was made. Plain ALTERs on "ToolCall" work whether or
-- not it is partitioned.
CREATE TABLE "IdentityProvider" (
    "id" UUID NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "annotations" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "spec" JSON NOT NULL,
    "issuer" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IdentityProvider_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "IdentityProvider_issuer_key" ON "IdentityProvider"("issuer");
CREATE UNIQUE INDEX "IdentityProvider_namespace_name_key" ON "IdentityProvider"("namespace", "name");

CREATE TABLE "DelegatedAccessToken" (
    "id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "agentId" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "identityProvider" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "email" TEXT,
    "claims" JSON NOT NULL DEFAULT '{}',
    "userId" TEXT,
    "resource" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "DelegatedAccessToken_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "DelegatedAccessToken_hash_key" ON "DelegatedAccessToken"("hash");
CREATE INDEX "DelegatedAccessToken_expiresAt_idx" ON "DelegatedAccessToken"("expiresAt");
ALTER TABLE "DelegatedAccessToken" ADD CONSTRAINT "DelegatedAccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "SubjectTokenUse" (
    "key" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "SubjectTokenUse_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "SubjectTokenUse_expiresAt_idx" ON "SubjectTokenUse"("expiresAt");

ALTER TABLE "ToolCall" ADD COLUMN "onBehalfOfIssuer" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN "onBehalfOfSubject" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN "onBehalfOfDisplayName" TEXT;

ALTER TABLE "ApprovalRequest" ADD COLUMN "onBehalfOfIssuer" TEXT;
ALTER TABLE "ApprovalRequest" ADD COLUMN "onBehalfOfSubject" TEXT;
ALTER TABLE "ApprovalRequest" ADD COLUMN "onBehalfOfDisplayName" TEXT;
