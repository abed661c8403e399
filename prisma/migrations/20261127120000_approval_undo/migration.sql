-- A decision takes effect a few seconds after it is made, so the approver can undo it
-- (docs/design/approvals.md#undo). The version tells the worker's job which decision it was queued
-- for: a job queued before an undo finds a newer version and runs nothing.
ALTER TABLE "ApprovalRequest" ADD COLUMN "effectiveAt" TIMESTAMPTZ(3);
ALTER TABLE "ApprovalRequest" ADD COLUMN "decisionVersion" INTEGER NOT NULL DEFAULT 0;
