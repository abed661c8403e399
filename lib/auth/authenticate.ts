// Who is calling, and may they? The route wrapper asks these two questions for every API request,
// and the portal's layout asks the first for every page. People come with a session cookie
// (better-auth), REST consumers with `Authorization: Bearer trk_…` (an API token of ours).
import { prisma } from '@/lib/db'
import { getAuth } from './better-auth'
import { bearerToken, hashToken } from './secret-token'

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
  /** The user behind a token (null for the token bootstrapped from TOOLROOM_ADMIN_TOKEN). */
  userId?: string | null
  /** How the caller proved who they are; cookie sessions must also pass the CSRF check. */
  via: 'session' | 'bearer'
}

/** Token lastUsedAt is written at most this often, so a busy token does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000

export async function authenticate(request: Request): Promise<Actor | null> {
  const bearer = bearerToken(request)
  if (bearer !== null) return bearer.startsWith('trk_') ? authenticateApiToken(bearer) : null
  return authenticateSession(request.headers)
}

/** The signed-in person of a page request (cookies only). */
export async function authenticateSession(headers: Headers): Promise<Actor | null> {
  if (!headers.get('cookie')) return null
  const result = await getAuth().api.getSession({ headers })
  if (!result) return null
  const user = result.user as typeof result.user & { role?: string; disabledAt?: Date | null }
  if (user.disabledAt) return null
  return { kind: 'user', id: user.id, name: user.email, roles: [asRole(user.role)], userId: user.id, via: 'session' }
}

async function authenticateApiToken(token: string): Promise<Actor | null> {
  const row = await prisma.apiToken.findUnique({
    where: { hash: hashToken(token) },
    include: { user: { select: { email: true, role: true, disabledAt: true } } },
  })
  const now = new Date()
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null
  if (row.userId && (!row.user || row.user.disabledAt)) return null
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS)
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } })
  return {
    kind: 'token',
    id: row.id,
    name: row.user ? `${row.name} (${row.user.email})` : row.name,
    roles: [row.user ? asRole(row.user.role) : 'admin'],
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    userId: row.userId,
    via: 'bearer',
  }
}

function asRole(value: unknown): Role {
  return (ROLES as readonly unknown[]).includes(value) ? (value as Role) : 'viewer'
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
