// Who may do what: pure rules shared by the server (route wrapper, pages) and the browser (which
// buttons to show). The server always decides; the browser only hides what would be refused.
import type { AgentIdentity } from './authenticate-agent'

/** `agent` routes are for the gateway's agent credentials only (lib/auth/authenticate-agent.ts). */
export type Access = 'public' | 'read' | 'write' | 'approve' | 'admin' | 'agent'
export type Role = 'viewer' | 'operator' | 'approver' | 'admin'
export type Scope = 'read' | 'write' | 'approve' | 'admin'

export const ROLES: readonly Role[] = ['viewer', 'operator', 'approver', 'admin']
export const SCOPES: readonly Scope[] = ['read', 'write', 'approve', 'admin']

export interface Actor {
  kind: 'user' | 'token' | 'agent'
  /** User id, API token id, or agent credential id. */
  id: string
  name: string
  roles: Role[]
  /** An API token's scopes; absent for people, whose role alone decides. */
  scopes?: Scope[]
  /** When an API token stops working (null: never); absent for everyone else. */
  expiresAt?: Date | null
  /** The user behind a token (null for the token bootstrapped from TOOLROOM_ADMIN_TOKEN). */
  userId?: string | null
  /** How the caller proved who they are; cookie sessions must also pass the CSRF check. */
  via: 'session' | 'bearer'
  /** For agents (access 'agent'): who they are, from their gateway credential. */
  agent?: AgentIdentity
}

const ROLES_FOR: Record<Exclude<Access, 'public' | 'agent'>, Role[]> = {
  read: ['viewer', 'operator', 'approver', 'admin'],
  write: ['operator', 'admin'],
  approve: ['approver', 'admin'],
  admin: ['admin'],
}

/** Scopes that grant an access level: every scope reads, admin does everything. */
const SCOPES_FOR: Record<Exclude<Access, 'public' | 'agent'>, Scope[]> = {
  read: ['read', 'write', 'approve', 'admin'],
  write: ['write', 'admin'],
  approve: ['approve', 'admin'],
  admin: ['admin'],
}

export function isAllowed(actor: Actor, access: Access): boolean {
  if (access === 'public') return true
  if (access === 'agent') return actor.kind === 'agent'
  if (actor.kind === 'agent') return false
  const byRole = actor.roles.some((role) => ROLES_FOR[access].includes(role))
  // A token can never do more than its creator's role allows, whatever its scopes say.
  const byScope = actor.scopes === undefined || actor.scopes.some((scope) => SCOPES_FOR[access].includes(scope))
  return byRole && byScope
}

/** Scopes a role may put on a token it creates. */
export function scopesAllowedFor(role: Role): Scope[] {
  return SCOPES.filter((scope) => scope === 'read' || ROLES_FOR[scope].includes(role))
}
