// Who is calling? The route wrapper asks for every API request (and then whether they may,
// lib/auth/access-rules.ts), and the portal's layout for every page. People come with a session cookie
// (better-auth), REST consumers with `Authorization: Bearer trk_…` (an API token of ours).
import 'server-only'
import { prisma } from '@/lib/db'
import { getAuth } from './better-auth'
import { type Actor, type Role, ROLES, type Scope, SCOPES } from '@/lib/auth/access-rules'
import { cachedTokenActor, rememberTokenActor } from '@/lib/auth/api-token-cache'
import { bearerToken, hashToken } from '@/lib/auth/secret-token'

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
  const hash = hashToken(token)
  const cached = cachedTokenActor(hash)
  if (cached) return cached
  const row = await prisma.apiToken.findUnique({
    where: { hash },
    include: { user: { select: { email: true, role: true, disabledAt: true } } },
  })
  const now = new Date()
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null
  if (row.userId && (!row.user || row.user.disabledAt)) return null
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS)
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } })
  const actor: Actor = {
    kind: 'token',
    id: row.id,
    name: row.user ? `${row.name} (${row.user.email})` : row.name,
    roles: [row.user ? asRole(row.user.role) : 'admin'],
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    userId: row.userId,
    expiresAt: row.expiresAt,
    via: 'bearer',
  }
  rememberTokenActor(hash, actor, row.expiresAt)
  return actor
}

function asRole(value: unknown): Role {
  return (ROLES as readonly unknown[]).includes(value) ? (value as Role) : 'viewer'
}
