-- An IdentityProvider's observed status (docs/design/access.md#identity-provider-status): whether its
-- keys (JWKS) can be had, when they were last fetched and how many there were, the provider's last
-- error, and the subject tokens refused by reason. Written when its keys are fetched or fail, and
-- refusals in batches: never once per token exchange.
ALTER TABLE "IdentityProvider" ADD COLUMN "phase" TEXT NOT NULL DEFAULT 'Pending',
ADD COLUMN "conditions" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN "jwksFetchedAt" TIMESTAMPTZ(3),
ADD COLUMN "jwksKeyCount" INTEGER,
ADD COLUMN "lastError" TEXT,
ADD COLUMN "lastErrorAt" TIMESTAMPTZ(3),
ADD COLUMN "refusals" JSONB NOT NULL DEFAULT '{}';

ALTER TABLE "IdentityProvider" ADD CONSTRAINT "IdentityProvider_phase_check" CHECK ("phase" IN ('Pending', 'Ready', 'Failed'));
