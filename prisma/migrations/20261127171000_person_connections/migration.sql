-- Connected accounts: each person's own connection of a LanguageTool whose calls use the person's
-- account (auth.oauth2.connect: perPerson), tokens sealed like Secrets, deleted with the user
-- (lib/upstream-auth, docs/design/access.md#connected-accounts).
CREATE TABLE "PersonConnection" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
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
    "refreshedAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "errorDescription" TEXT,
    "failedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonConnection_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "PersonConnection_namespace_name_userId_key" ON "PersonConnection"("namespace", "name", "userId");
CREATE INDEX "PersonConnection_userId_idx" ON "PersonConnection"("userId");
ALTER TABLE "PersonConnection" ADD CONSTRAINT "PersonConnection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A state handed out for a person's own connection is finished only at the person's callback.
ALTER TABLE "UpstreamAuthorization" ADD COLUMN "personal" BOOLEAN NOT NULL DEFAULT false;
