// Fills the queue for the approvals benchmark: `count` pending calls spread over a week, in one
// statement per table, so 10,000 rows take well under a second.
export async function fillApprovalQueue(client, count) {
  await client.query(
    `
    WITH calls AS (
      INSERT INTO "ToolCall" ("startedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", provenance, level, channel, outcome, "idempotencyKey")
      SELECT now() - (g * interval '50 seconds'), gen_random_uuid(), 'default', 'bench-agent-' || (g % 40), 'unit-' || (g % 8),
             (ARRAY['payments.refund','mail.send','iam.grant_role'])[1 + g % 3], (ARRAY['payments','mail','iam'])[1 + g % 3],
             'grant', (ARRAY['financial','communication','privileged'])[1 + g % 3]::"SideEffectLevel", 'mcp', 'pending_approval', 'bench-' || g
        FROM generate_series(1, $1) g
      RETURNING id, "startedAt", "agentId", "agentName", unit, "toolId", "toolNamespace", level, "idempotencyKey"
    )
    INSERT INTO "ApprovalRequest" ("callId", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", level, args, "idempotencyKey", policy, "rateLimit", "requestedAt", "expiresAt")
    SELECT id, "agentId", 'default', "agentName", unit, "toolId", "toolNamespace", level,
           json_build_object('orderId', 'A-' || substr(id::text, 1, 8), 'amount', 125.5, 'note', repeat('x', 80)), "idempotencyKey",
           '{"source":"default","level":"financial","expirySeconds":864000,"expirySource":"default"}', '{"callsPerMinute":{"used":3,"limit":10}}',
           "startedAt", "startedAt" + interval '10 days'
      FROM calls`,
    [count],
  )
  await client.query('ANALYZE "ApprovalRequest"')
}
