// Who the audit log names for a request: the authenticated caller, reduced to what the log keeps.
import type { Actor } from '@/lib/auth/authenticate'
import type { AuditActor, AuditActorKind } from './record-audit-event'

/** What a change carries down from its route handler so the record names who asked and in which request. */
export interface AuditContext {
  actor: AuditActor
  requestId?: string
}

const KINDS: readonly AuditActorKind[] = ['user', 'token', 'agent', 'system']

export function auditActorOf(actor: Actor & { id?: string | null }): AuditActor {
  // Until sign-in exists every caller is the anonymous local operator: a person at the portal.
  const kind = (KINDS as readonly string[]).includes(actor.kind) ? (actor.kind as AuditActorKind) : 'user'
  return { kind, id: actor.id ?? null, name: actor.name }
}

export function auditContextOf(ctx: { actor: Actor & { id?: string | null }; requestId: string }): AuditContext {
  return { actor: auditActorOf(ctx.actor), requestId: ctx.requestId }
}

/** Changes made by Toolroom itself (seeding the demo fleet, re-sealing secrets). */
export function systemContext(name: string): AuditContext {
  return { actor: { kind: 'system', id: null, name } }
}
