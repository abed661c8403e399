// Appends one event to the audit log. Pass the transaction client when the change itself is written
// in a transaction, so the record and the change commit (or roll back) together.
import 'server-only'
import { prisma } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'

export const AUDIT_ACTOR_KINDS = ['user', 'token', 'agent', 'system'] as const
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number]

export interface AuditActor {
  kind: AuditActorKind
  id?: string | null
  name: string
}

export interface AuditEventInput {
  actor: AuditActor
  /** Dotted verb, e.g. `resource.updated`, `token.created`, `auth.signed_in`. */
  action: string
  kind?: string
  namespace?: string
  resource?: string
  resourceId?: string
  before?: unknown
  after?: unknown
  detail?: Record<string, unknown>
  requestId?: string
}

type Db = Pick<Prisma.TransactionClient, 'auditEvent'>

export async function recordAuditEvent(event: AuditEventInput, db: Db = prisma): Promise<void> {
  await db.auditEvent.create({ data: toRow(event) })
}

export async function recordAuditEvents(events: AuditEventInput[], db: Db = prisma): Promise<void> {
  if (events.length) await db.auditEvent.createMany({ data: events.map(toRow) })
}

function toRow(event: AuditEventInput): Prisma.AuditEventCreateManyInput {
  return {
    actorKind: event.actor.kind,
    actorId: event.actor.id ?? null,
    actorName: event.actor.name,
    action: event.action,
    kind: event.kind ?? null,
    namespace: event.namespace ?? null,
    resource: event.resource ?? null,
    resourceId: event.resourceId ?? null,
    before: jsonOrNull(event.before),
    after: jsonOrNull(event.after),
    detail: (event.detail ?? {}) as Prisma.InputJsonValue,
    requestId: event.requestId ?? null,
  }
}

function jsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === undefined || value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue)
}
