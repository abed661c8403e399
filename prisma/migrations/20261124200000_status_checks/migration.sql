-- Columns that hold a closed set of words refuse any other, so a bug or a hand-written UPDATE cannot
-- store a status the code does not know (Prisma does not model CHECK constraints: schema.prisma names
-- each beside its column). The words come from one TypeScript constant each;
-- tests/integration/status-checks.test.ts reads them back from pg_constraint and compares.
-- NULL passes a CHECK: nullable columns (ApprovalRequest.execution) stay nullable.

ALTER TABLE "Tool" ADD CONSTRAINT "Tool_phase_check" CHECK ("phase" IN ('Pending', 'Ready', 'Degraded', 'Failed'));
ALTER TABLE "LanguageTool" ADD CONSTRAINT "LanguageTool_phase_check" CHECK ("phase" IN ('Pending', 'Ready', 'Failed'));
ALTER TABLE "DiscoveryRun" ADD CONSTRAINT "DiscoveryRun_subjectKind_check" CHECK ("subjectKind" IN ('Agent', 'Unit', 'LanguageTool'));
ALTER TABLE "DiscoveryRun" ADD CONSTRAINT "DiscoveryRun_trigger_check" CHECK ("trigger" IN ('created', 'rotation', 'changed', 'manual', 'periodic'));
ALTER TABLE "DiscoveryRun" ADD CONSTRAINT "DiscoveryRun_status_check" CHECK ("status" IN ('running', 'succeeded', 'failed'));
ALTER TABLE "SurfaceChange" ADD CONSTRAINT "SurfaceChange_subjectKind_check" CHECK ("subjectKind" IN ('Agent', 'Unit', 'LanguageTool'));
ALTER TABLE "SurfaceChange" ADD CONSTRAINT "SurfaceChange_status_check" CHECK ("status" IN ('applied', 'pending_review', 'accepted', 'rejected'));
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_channel_check" CHECK ("channel" IN ('mcp', 'rest', 'ingest'));
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_outcome_check" CHECK ("outcome" IN ('succeeded', 'failed', 'denied', 'invalid_arguments', 'rate_limited', 'deduplicated', 'pending_approval', 'approved', 'rejected', 'expired'));
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_actorKind_check" CHECK ("actorKind" IN ('user', 'token', 'agent', 'system'));
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_status_check" CHECK ("status" IN ('pending', 'approved', 'denied', 'expired'));
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_execution_check" CHECK ("execution" IN ('queued', 'running', 'succeeded', 'failed'));
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_events_check" CHECK ("events" <@ ARRAY['approval.requested', 'approval.decided']::text[]);
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_event_check" CHECK ("event" IN ('approval.requested', 'approval.decided'));
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'));
ALTER TABLE "GatewayIdempotency" ADD CONSTRAINT "GatewayIdempotency_state_check" CHECK ("state" IN ('running', 'done'));
ALTER TABLE "CallStatHourly" ADD CONSTRAINT "CallStatHourly_dimension_check" CHECK ("dimension" IN ('tool', 'agent', 'unit', 'namespace', 'all'));
ALTER TABLE "CallStatToolHourly" ADD CONSTRAINT "CallStatToolHourly_part_check" CHECK ("part" IN ('agent', 'error'));
ALTER TABLE "CallStat7d" ADD CONSTRAINT "CallStat7d_dimension_check" CHECK ("dimension" IN ('tool', 'agent', 'unit', 'namespace', 'all'));
ALTER TABLE "User" ADD CONSTRAINT "User_role_check" CHECK ("role" IN ('viewer', 'operator', 'approver', 'admin'));
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_scopes_check" CHECK ("scopes" <@ ARRAY['read', 'write', 'approve', 'admin']::text[]);
