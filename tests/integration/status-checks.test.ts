// Status-like columns refuse words the code does not know (migration 20261124200000_status_checks).
// Each CHECK constraint's words are read back from pg_constraint and compared with the one constant
// the code writes from, so neither can change without the other.
import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { APPROVAL_EXECUTIONS, APPROVAL_STATUSES } from '@/lib/approvals/approval-view'
import { AUDIT_ACTOR_KINDS } from '@/lib/audit/record-audit-event'
import { ROLES, SCOPES } from '@/lib/auth/access-rules'
import { prisma } from '@/lib/db'
import { DISCOVERY_RUN_STATUSES, DISCOVERY_SUBJECT_KINDS, LANGUAGE_TOOL_PHASES, SURFACE_CHANGE_STATUSES } from '@/lib/discovery/discovery-states'
import { DISCOVERY_TRIGGERS } from '@/lib/jobs/discovery-triggers'
import { IDEMPOTENCY_STATES } from '@/lib/gateway/idempotency'
import { IDENTITY_PROVIDER_PHASES } from '@/lib/identity/identity-provider-conditions'
import { CALL_CHANNELS, CALL_OUTCOMES } from '@/lib/stats/call-outcomes'
import { TOTALS_DIMENSIONS } from '@/lib/stats/person-stat-key-sql'
import { STAT_DIMENSIONS } from '@/lib/stats/read-call-stats'
import { TOOL_FAILURE_PARTS } from '@/lib/stats/read-tool-failures'
import { TOOL_PHASES } from '@/lib/tools/tool-conditions'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from '@/lib/webhooks/webhook-events'

/** Every checked column, as `Table.column`, with the constant its words come from. */
const CHECKED_COLUMNS: Record<string, readonly string[]> = {
  'Tool.phase': TOOL_PHASES,
  'LanguageTool.phase': LANGUAGE_TOOL_PHASES,
  'IdentityProvider.phase': IDENTITY_PROVIDER_PHASES,
  'DiscoveryRun.subjectKind': DISCOVERY_SUBJECT_KINDS,
  'DiscoveryRun.trigger': DISCOVERY_TRIGGERS,
  'DiscoveryRun.status': DISCOVERY_RUN_STATUSES,
  'SurfaceChange.subjectKind': DISCOVERY_SUBJECT_KINDS,
  'SurfaceChange.status': SURFACE_CHANGE_STATUSES,
  'ToolCall.channel': CALL_CHANNELS,
  'ToolCall.outcome': CALL_OUTCOMES,
  'AuditEvent.actorKind': AUDIT_ACTOR_KINDS,
  'ApprovalRequest.status': APPROVAL_STATUSES,
  'ApprovalRequest.execution': APPROVAL_EXECUTIONS,
  'WebhookEndpoint.events': WEBHOOK_EVENTS,
  'WebhookDelivery.event': WEBHOOK_EVENTS,
  'WebhookDelivery.status': WEBHOOK_DELIVERY_STATUSES,
  'GatewayIdempotency.state': IDEMPOTENCY_STATES,
  'CallStatHourly.dimension': STAT_DIMENSIONS,
  'CallStatToolHourly.part': TOOL_FAILURE_PARTS,
  'CallStat7d.dimension': TOTALS_DIMENSIONS,
  'User.role': ROLES,
  'ApiToken.scopes': SCOPES,
}

const callData = (outcome: string) => ({
  agentId: randomUUID(),
  agentNamespace: 'default',
  agentName: 'checker',
  toolId: 'github.create_issue',
  toolNamespace: 'github',
  provenance: 'grant',
  channel: 'mcp',
  outcome,
})

describe('CHECK constraints on status columns', () => {
  beforeEach(async () => {
    await prisma.$executeRawUnsafe('TRUNCATE "ApprovalRequest", "ToolCall", "Tool"')
  })

  it('allow exactly the words of the constant each column is written from', async () => {
    // Each day of the call log (a partition) repeats ToolCall's checks: ToolCall's own stand for them.
    const rows = await prisma.$queryRaw<Array<{ table: string; column: string; definition: string }>>`
      SELECT t.relname AS table, a.attname AS column, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'c' AND c.connamespace = 'public'::regnamespace AND NOT t.relispartition`
    const inDatabase = Object.fromEntries(
      rows.map((row) => [`${row.table}.${row.column}`, [...row.definition.matchAll(/'([^']*)'::text/g)].map((m) => m[1]).sort()]),
    )
    const inCode = Object.fromEntries(Object.entries(CHECKED_COLUMNS).map(([column, words]) => [column, [...words].sort()]))
    expect(inDatabase).toEqual(inCode)
  })

  it('refuse a call outcome, a channel, an approval status, a tool phase, a role and a token scope the code does not know', async () => {
    await expect(prisma.toolCall.create({ data: callData('exploded') })).rejects.toThrow(/ToolCall_outcome_check/)
    await expect(prisma.toolCall.create({ data: { ...callData('succeeded'), channel: 'carrier-pigeon' } })).rejects.toThrow(/ToolCall_channel_check/)
    const held = await prisma.toolCall.create({ data: callData('pending_approval') })
    const approval = await prisma.approvalRequest.create({
      data: {
        callId: held.id,
        agentId: held.agentId,
        agentNamespace: 'default',
        agentName: 'checker',
        toolId: held.toolId,
        toolNamespace: 'github',
        expiresAt: new Date(Date.now() + 60_000),
      },
    })
    await expect(prisma.approvalRequest.update({ where: { id: approval.id }, data: { status: 'maybe' } })).rejects.toThrow(/ApprovalRequest_status_check/)
    await expect(prisma.approvalRequest.update({ where: { id: approval.id }, data: { status: 'approved', execution: 'teleported' } })).rejects.toThrow(
      /ApprovalRequest_execution_check/,
    )
    // A nullable column stays nullable, and a known word is taken.
    await prisma.approvalRequest.update({ where: { id: approval.id }, data: { status: 'approved', execution: null } })
    await prisma.approvalRequest.update({ where: { id: approval.id }, data: { execution: 'queued' } })

    const tool = await prisma.tool.create({
      data: {
        apiVersion: 'toolroom.dev/v1alpha1',
        namespace: 'default',
        name: `checked-${randomUUID().slice(0, 8)}`,
        type: 'function',
        description: 'd',
        spec: {},
      },
    })
    expect(tool.phase).toBe('Pending')
    await expect(prisma.$executeRaw`UPDATE "Tool" SET phase = 'Sleeping' WHERE id = ${tool.id}::uuid`).rejects.toThrow(/Tool_phase_check/)
    await expect(prisma.user.create({ data: { name: 'x', email: `${randomUUID()}@example.com`, role: 'superuser' } })).rejects.toThrow(/User_role_check/)
    await expect(prisma.apiToken.create({ data: { name: 'x', hash: randomUUID(), hint: 'trk_x', scopes: ['read', 'root'] } })).rejects.toThrow(
      /ApiToken_scopes_check/,
    )
  })
})
