// Reads of the audit log for the page, the API and the export: filters, newest first, keyset pages.
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import type { Prisma } from '@/lib/generated/prisma/client'

export interface AuditFilters {
  actor?: string
  actorKind?: string
  /** Exact action, or a prefix ending in `*` (`resource.*`). */
  action?: string
  kind?: string
  namespace?: string
  resource?: string
  resourceId?: string
  from?: Date
  to?: Date
}

export interface AuditEventView {
  id: string
  at: string
  actor: { kind: string; id: string | null; name: string }
  action: string
  kind: string | null
  namespace: string | null
  resource: string | null
  resourceId: string | null
  before: unknown
  after: unknown
  detail: Record<string, unknown> | null
  requestId: string | null
}

type Row = Prisma.AuditEventGetPayload<object>

export function auditWhere(f: AuditFilters): Prisma.AuditEventWhereInput {
  const action = f.action?.endsWith('*') ? { startsWith: f.action.slice(0, -1) } : f.action
  return {
    ...(f.actor ? { actorName: f.actor } : {}),
    ...(f.actorKind ? { actorKind: f.actorKind } : {}),
    ...(action ? { action } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.namespace ? { namespace: f.namespace } : {}),
    ...(f.resource ? { resource: f.resource } : {}),
    ...(f.resourceId ? { resourceId: f.resourceId } : {}),
    ...(f.from || f.to ? { at: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
  }
}

export function toAuditEventView(row: Row): AuditEventView {
  return {
    id: row.id.toString(),
    at: row.at.toISOString(),
    actor: { kind: row.actorKind, id: row.actorId, name: row.actorName },
    action: row.action,
    kind: row.kind,
    namespace: row.namespace,
    resource: row.resource,
    resourceId: row.resourceId,
    before: row.before,
    after: row.after,
    detail: row.detail as Record<string, unknown> | null,
    requestId: row.requestId,
  }
}

// Ids grow with every append, so (id desc) is a stable order and the id alone is the cursor.
export function encodeAuditCursor(id: bigint): string {
  return Buffer.from(`audit:${id}`).toString('base64url')
}

export function decodeAuditCursor(raw: string): bigint {
  const match = /^audit:(\d{1,19})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'))
  // bigint ids stop at 2^63 - 1; a larger number is no id PostgreSQL could compare with.
  if (match && BigInt(match[1]) <= 9_223_372_036_854_775_807n) return BigInt(match[1])
  throw new AppError('BAD_REQUEST', 'query parameter "cursor" is not a cursor this API issued', [
    { field: 'cursor', rule: 'cursor', message: 'is not a cursor this API issued; pass nextCursor from the previous page' },
  ])
}

export async function listAuditEvents(f: AuditFilters & { limit: number; cursor?: string }) {
  const before = f.cursor ? decodeAuditCursor(f.cursor) : null
  const where = auditWhere(f)
  const rows = await prisma.auditEvent.findMany({
    where: before === null ? where : { AND: [where, { id: { lt: before } }] },
    orderBy: { id: 'desc' },
    take: f.limit + 1,
  })
  const items = rows.slice(0, f.limit)
  const last = items[items.length - 1]
  return { items: items.map(toAuditEventView), nextCursor: rows.length > f.limit && last ? encodeAuditCursor(last.id) : null }
}
