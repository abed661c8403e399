-- The person's verified claims, kept with a held call so the Policies asked again at its run read the
-- same person (docs/design/approvals.md#on-whose-behalf).
ALTER TABLE "ApprovalRequest" ADD COLUMN "onBehalfOfClaims" JSON;
