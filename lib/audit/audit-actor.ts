// Who the audit log names for a request: the authenticated caller, reduced to what the log keeps.
import type { Actor } from '@/lib/auth/access-rules'
import type { AuditActor } from './record-audit-event'

/** What a change carries down from its route handler so the record names who asked and in which request. */
export interface AuditContext {
  actor: AuditActor
  requestId?: string
}

/** How an authenticated caller appears in the audit log. */
export function auditActorOf(actor: Actor): AuditActor {
  return { kind: actor.kind, id: actor.id, name: actor.name }
}

export function auditContextOf(ctx: { actor: Actor; requestId: string }): AuditContext {
  return { actor: auditActorOf(ctx.actor), requestId: ctx.requestId }
}

/** Changes made by Toolroom itself (seeding the demo fleet, re-sealing secrets). */
export function systemContext(name: string): AuditContext {
  return { actor: { kind: 'system', id: null, name } }
}
