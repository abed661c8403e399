-- A held call keeps what it needs to act for its person when it runs (docs/design/approvals.md#on-whose-behalf).
ALTER TABLE "ApprovalRequest"
  ADD COLUMN "onBehalfOfVia" TEXT,
  ADD COLUMN "onBehalfOfEmail" TEXT,
  ADD COLUMN "delegationId" UUID,
  ADD COLUMN "delegationCredentialId" UUID,
  ADD COLUMN "personUserId" TEXT,
  ADD COLUMN "subjectSealed" BYTEA,
  ADD COLUMN "subjectKeyId" TEXT,
  ADD COLUMN "subjectTokenType" TEXT,
  ADD COLUMN "subjectExpiresAt" TIMESTAMPTZ(3);
