-- What a held call will do, as approvers read it (docs/design/approvals.md#summaries): the line, the
-- argument entries and the tool's description rendered when the call was held; and the Policy rules
-- that asked for the approval, with their reasons (docs/design/policy.md#approval).
ALTER TABLE "ApprovalRequest" ADD COLUMN "reading" JSON;
ALTER TABLE "ApprovalRequest" ADD COLUMN "policyRules" JSON;
