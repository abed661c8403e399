// People and credentials for access tests: one user per role, signed in for real through
// POST /api/v1/session (better-auth underneath), and API tokens created through POST /api/v1/tokens.
import { randomInt } from 'node:crypto'
import { accessRoutes } from '@/lib/api/access-routes'
import type { Role, Scope } from '@/lib/auth/access-rules'
import { prisma } from '@/lib/db'
import { frontPeerHeaders } from '@/lib/request-origin/client-address'
import { createUser } from '@/lib/people/create-user'
import { call, TEST_ORIGIN } from './helpers'

export const PASSWORD = 'correct horse battery staple'
export const ROLE_LIST: Role[] = ['viewer', 'operator', 'approver', 'admin']

export const emailFor = (role: Role, tag = 'fixture') => `${role}.${tag}@toolroom.test`

export async function ensureUser(role: Role, tag = 'fixture'): Promise<{ id: string; email: string }> {
  const email = emailFor(role, tag)
  const existing = await prisma.user.findUnique({ where: { email } })
  if (existing) {
    if (existing.role !== role || existing.disabledAt) await prisma.user.update({ where: { id: existing.id }, data: { role, disabledAt: null } })
    return { id: existing.id, email }
  }
  const { user } = await createUser({ email, role, password: PASSWORD }, { kind: 'system', name: 'tests' })
  return { id: user.id, email }
}

/** A made-up client address, so each test's sign-ins count against their own attempt limit (sent as the gateway front tells Next.js the peer). */
export const someIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

export async function signIn(email: string, password = PASSWORD, ip = someIp()) {
  return call(accessRoutes.signIn, '/api/v1/session', {
    method: 'POST',
    as: 'none',
    headers: { origin: TEST_ORIGIN, ...frontPeerHeaders(ip) },
    body: { email, password },
  })
}

/** The `Cookie` header value a browser would send after signing in. */
export function cookieFrom(response: { headers: Headers }): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ')
}

export async function sessionCookie(role: Role, tag = 'fixture'): Promise<string> {
  const { email } = await ensureUser(role, tag)
  const res = await signIn(email)
  if (res.status !== 200) throw new Error(`sign-in as ${role} failed: ${res.status} ${res.text}`)
  return cookieFrom(res)
}

export async function tokenFor(cookie: string, scopes: Scope[], extra: Record<string, unknown> = {}): Promise<{ token: string; id: string }> {
  const res = await call(accessRoutes.createToken, '/api/v1/tokens', {
    method: 'POST',
    as: { cookie },
    body: { name: `test ${scopes.join('+')}`, scopes, ...extra },
  })
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${res.text}`)
  return { token: res.json.token, id: res.json.id }
}
