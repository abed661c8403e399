// The audit log over the API: filtered pages newest first, and the whole (filtered) log as JSONL.
// Readable by every signed-in role, like the rest of the registry: the log holds resource documents
// anyone with read access can already see (Secret values never enter it) plus who changed them, and
// an audit trail that only a few may read does little for accountability.
import { exportAuditEvents } from '@/lib/audit/export-audit-events'
import { AUDIT_ACTOR_KINDS } from '@/lib/audit/record-audit-event'
import { type AuditEventView, type AuditFilters, listAuditEvents } from '@/lib/audit/list-audit-events'
import type { RouteContract } from '@/lib/http/contract'
import { MAX_PAGE_SIZE } from '@/lib/http/pagination'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'

const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .openapi({ description: 'An ISO 8601 date-time with offset (2026-11-22T04:00:00Z) or a date (2026-11-22, meaning its start in UTC)' })
const text = (description: string) => z.string().min(1).max(253).optional().openapi({ description })

const filterFields = {
  actor: text('Name of who acted (user, token, agent or system)'),
  actorKind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  action: text('An action (`resource.updated`), or a prefix ending in `*` (`resource.*`)'),
  kind: text('Kind of what was acted on (Tool, Agent, Secret, ApiToken, ...)'),
  namespace: z.string().min(1).max(63).optional(),
  resource: text('Name of what was acted on'),
  resourceId: text('Id of what was acted on'),
  from: instant.optional().openapi({ description: 'Events at or after this time' }),
  to: instant.optional().openapi({ description: 'Events before this time' }),
}

const listQuery = z.strictObject({
  ...filterFields,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(200).optional(),
})
const exportQuery = z.strictObject(filterFields)

export const auditEventSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string() }),
    action: z.string(),
    kind: z.string().nullable(),
    namespace: z.string().nullable(),
    resource: z.string().nullable(),
    resourceId: z.string().nullable(),
    before: z.unknown().openapi({ description: 'The resource document before the change (never Secret values)' }),
    after: z.unknown().openapi({ description: 'The resource document after the change' }),
    detail: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'Anything else worth keeping: comment, policy, client address, …' }),
    requestId: z.string().nullable(),
  })
  .openapi('AuditEvent') satisfies z.ZodType<AuditEventView>

export const AUDIT_CONTRACTS = {
  list: {
    method: 'GET',
    path: '/api/v1/audit',
    operationId: 'listAuditEvents',
    tags: ['Audit'],
    access: 'read',
    summary: 'The append-only audit log, newest first: resource changes with before and after, decisions, sign-ins, token actions',
    query: listQuery,
    response: z.object({ items: z.array(auditEventSchema), nextCursor: z.string().nullable() }).openapi('AuditEventPage'),
  },
  export: {
    method: 'GET',
    path: '/api/v1/audit/export',
    operationId: 'exportAuditEvents',
    tags: ['Audit'],
    access: 'read',
    summary: 'The audit log (same filters) as JSON Lines, one AuditEvent per line, oldest first, streamed',
    query: exportQuery,
    response: z.string().openapi({ description: 'JSON Lines of AuditEvent' }),
    responseContentType: 'application/jsonl',
  },
} satisfies Record<string, RouteContract>

function filtersFrom(query: z.output<typeof exportQuery>): AuditFilters {
  const { from, to, ...rest } = query
  return { ...rest, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined }
}

export const auditRoutes = {
  list: route(AUDIT_CONTRACTS.list, async ({ query }) => {
    const { limit, cursor, ...filters } = query
    return listAuditEvents({ ...filtersFrom(filters), limit, cursor })
  }),
  export: route(AUDIT_CONTRACTS.export, async ({ query }) => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    return new Response(await exportAuditEvents(filtersFrom(query)), {
      headers: { 'content-type': 'application/jsonl; charset=utf-8', 'content-disposition': `attachment; filename="toolroom-audit-${stamp}.jsonl"` },
    })
  }),
}
