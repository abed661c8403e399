// Who is calling, and may they? The route wrapper asks these two questions for every API request.
// Sign-in, API tokens and roles arrive with the access issue; until then every caller is treated as
// the local operator, which is why the portal must not be exposed beyond a trusted network yet.
import type { AgentIdentity } from './authenticate-agent'

export type Access = 'public' | 'read' | 'write' | 'approve' | 'admin' | 'agent'
export type Role = 'viewer' | 'operator' | 'approver' | 'admin'

export interface Actor {
  kind: 'user' | 'token' | 'anonymous' | 'agent'
  name: string
  roles: Role[]
  /** For agents (access 'agent'): who they are, from their gateway credential. */
  agent?: AgentIdentity
}

const LOCAL_OPERATOR: Actor = { kind: 'anonymous', name: 'local-operator', roles: ['admin'] }

export async function authenticate(_request: Request): Promise<Actor | null> {
  return LOCAL_OPERATOR
}

const ROLES_FOR: Record<Exclude<Access, 'public' | 'agent'>, Role[]> = {
  read: ['viewer', 'operator', 'approver', 'admin'],
  write: ['operator', 'admin'],
  approve: ['approver', 'admin'],
  admin: ['admin'],
}

export function isAllowed(actor: Actor, access: Access): boolean {
  if (access === 'public') return true
  // Agent routes take agent credentials only, and agents reach nothing else.
  if (access === 'agent' || actor.kind === 'agent') return access === 'agent' && actor.kind === 'agent'
  return actor.roles.some((role) => ROLES_FOR[access].includes(role))
}
