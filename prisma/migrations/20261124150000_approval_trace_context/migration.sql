-- The trace of the call an approval holds, so the approved execution (in a worker, later) links to it.
ALTER TABLE "ApprovalRequest" ADD COLUMN "traceparent" TEXT;
