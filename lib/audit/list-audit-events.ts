// Reads of the audit log for the page, the API and the export: filters, newest first, keyset pages.
import 'server-only'
import { prisma } from '@/lib/db'
import { likeLiteral } from '@/lib/text/like-literal'
import type { Prisma } from '@/lib/generated/prisma/client'
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'

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
  const action = f.action?.endsWith('*') ? { startsWith: likeLiteral(f.action.slice(0, -1)) } : f.action
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

export async function listAuditEvents(f: AuditFilters & { limit: number; cursor?: string }) {
  // Newest first by time, then id (events of one transaction share their time): the order the
  // (filter, at) indexes keep, paged with the validated time cursor.
  const after = f.cursor ? decodeTimeCursor(f.cursor, 'serial') : null
  const where = auditWhere(f)
  const rows = await prisma.auditEvent.findMany({
    where: after === null ? where : { AND: [where, afterTimeCursor('at', after, 'desc', BigInt(after.id))] },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  })
  const { items, nextCursor } = keysetPage(rows, f.limit, (last) => encodeTimeCursor(last.at, last.id))
  return { items: items.map(toAuditEventView), nextCursor }
}
