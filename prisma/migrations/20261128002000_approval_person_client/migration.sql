-- The OAuth client a person consented to, for a call held while acting for them: the run checks it
-- still stands (enabled, still the same agent's) before acting for them (lib/identity/delegation-standing.ts).
ALTER TABLE "ApprovalRequest" ADD COLUMN "delegationClientId" TEXT;
