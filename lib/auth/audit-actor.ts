import type { AuditActor } from '@/lib/audit/record-audit-event'
import type { Actor } from './authenticate'

/** How an authenticated caller appears in the audit log. */
export function auditActorOf(actor: Actor): AuditActor {
  return { kind: actor.kind, id: actor.id, name: actor.name }
}
