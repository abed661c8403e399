// Sign-in, sessions, CSRF, API tokens and the People API, against real better-auth on PostgreSQL.
import { describe, expect, it } from 'vitest'
import { accessRoutes } from '@/lib/api/access-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { parseConfig, reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { frontPeerHeaders } from '@/lib/request-origin/client-address'
import { authHandler } from '@/lib/sign-in/auth-handler'
import { ensureEnvAdminToken } from '@/lib/tokens/ensure-env-admin-token'
import { until } from '../support/until'
import { call, TEST_ORIGIN } from './helpers'
import { cookieFrom, emailFor, ensureUser, PASSWORD, sessionCookie, signIn, someIp, tokenFor } from './access-fixtures'

const tools = resourceRoutes('Tool')
const lastAudit = (action: string) => prisma.auditEvent.findFirst({ where: { action }, orderBy: { id: 'desc' } })

describe('sign-in', () => {
  it('signs in with email and password, sets a session cookie, and records it', async () => {
    const { email, id } = await ensureUser('operator')
    const res = await signIn(email)
    expect(res.status).toBe(200)
    expect(res.json.user).toMatchObject({ email, role: 'operator' })
    const setCookie = res.headers.getSetCookie().join('\n')
    expect(setCookie).toMatch(/toolroom\.session_token=/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    const me = await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie: cookieFrom(res) } })
    expect(me.json).toMatchObject({ kind: 'user', id, name: email, roles: ['operator'] })
    expect(await lastAudit('auth.signed_in')).toMatchObject({ actorId: id, actorName: email })
  })

  it('refuses a wrong password with problem+json and records the failure', async () => {
    const { email } = await ensureUser('viewer')
    const res = await signIn(email, 'not the password at all')
    expect(res.status).toBe(401)
    expect(res.contentType).toBe('application/problem+json')
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await lastAudit('auth.sign_in_failed')).toMatchObject({ actorName: email })
  })

  it('limits failed sign-ins per account, never a whole address: successes and guesses at other accounts stop nobody there', async () => {
    const ip = someIp()
    // More successful sign-ins from one address (an office behind NAT, a script checking the portal) than the limit allows failures.
    for (let i = 0; i < 12; i++) {
      const { email } = await ensureUser('viewer', `office-${i}`)
      expect((await signIn(email, PASSWORD, ip)).status).toBe(200)
    }
    const regular = await ensureUser('viewer', 'office-regular')
    for (let i = 0; i < 12; i++) expect((await signIn(regular.email, PASSWORD, ip)).status).toBe(200)
    // A stranger's guesses at other accounts from the same address do not stop a brand-new account's first sign-in.
    for (let i = 0; i < 12; i++) expect((await signIn(`guess${i}.${ip}@toolroom.test`, 'wrong password number ' + i, ip)).status).toBe(401)
    const fresh = await ensureUser('viewer', `office-new-${ip}`)
    expect((await signIn(fresh.email, PASSWORD, ip)).status).toBe(200)
    expect(await prisma.rateLimit.count({ where: { key: { startsWith: ip } } })).toBe(0)
  }, 60_000)

  it('limits sign-in attempts per account too, whatever address they come from', async () => {
    const { email } = await ensureUser('viewer', 'per-account')
    for (let i = 0; i < 10; i++) expect((await signIn(email, 'wrong password number ' + i, someIp())).status).toBe(401)
    const blocked = await signIn(email, PASSWORD, someIp())
    expect(blocked.status).toBe(429)
    expect(blocked.contentType).toBe('application/problem+json')
    expect(blocked.json.detail).toMatch(/too many sign-in attempts for this account/)
    expect(blocked.headers.getSetCookie()).toEqual([])
    expect((await lastAudit('auth.sign_in_failed'))?.detail).toMatchObject({ reason: 'too_many_attempts_for_account' })
    // Other accounts are not affected, and successful sign-ins use up nothing.
    const other = await ensureUser('viewer', 'per-account-other')
    for (let i = 0; i < 3; i++) expect((await signIn(other.email)).status).toBe(200)
    expect((await prisma.rateLimit.findUnique({ where: { key: `account:sign-in:${other.email}` } }))?.count).toBe(0)
  }, 60_000)

  it('answers hostile sign-in bodies with problem+json', async () => {
    const cases: [unknown, string | undefined, number][] = [
      ['{"email": ', 'application/json', 400],
      [{ email: 42, password: ['x'] }, undefined, 422],
      [{ email: 'not-an-email', password: 'x' }, undefined, 422],
      [{ email: 'a@b.test', password: 'x', role: 'admin' }, undefined, 422],
      [{ email: 'a@b.test', password: 'x'.repeat(10_000) }, undefined, 413],
      ['email=a@b.test&password=x', 'application/x-www-form-urlencoded', 415],
    ]
    for (const [body, contentType, status] of cases) {
      const res = await call(accessRoutes.signIn, '/api/v1/session', {
        method: 'POST',
        as: 'none',
        headers: { origin: TEST_ORIGIN, ...frontPeerHeaders(someIp()) },
        body,
        contentType,
      })
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status)
      expect(res.contentType).toBe('application/problem+json')
    }
  })

  it('keeps a disabled person out, and ends their sessions', async () => {
    const admin = await sessionCookie('admin')
    const { id, email } = await ensureUser('operator', 'to-disable')
    const theirs = await sessionCookie('operator', 'to-disable')
    const res = await call(accessRoutes.changeUser, `/api/v1/users/${id}`, { method: 'PATCH', params: { id }, as: { cookie: admin }, body: { disabled: true } })
    expect(res.status).toBe(200)
    expect(res.json.disabled).toBe(true)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie: theirs } })).status).toBe(401)
    expect((await signIn(email)).status).toBe(401)
    expect(await lastAudit('user.updated')).toMatchObject({ resource: email, after: { disabled: true } })
  })
})

describe('sessions', () => {
  it('expire: an expired session is no longer accepted', async () => {
    const cookie = await sessionCookie('viewer', 'expiry')
    const session = await prisma.session.findFirst({ where: { user: { email: emailFor('viewer', 'expiry') } }, orderBy: { createdAt: 'desc' } })
    // The default is 12 hours (TOOLROOM_SESSION_HOURS).
    const hours = (session!.expiresAt.getTime() - session!.createdAt.getTime()) / 3_600_000
    expect(hours).toBeGreaterThan(11.9)
    expect(hours).toBeLessThan(12.1)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })).status).toBe(200)
    await prisma.session.update({ where: { id: session!.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })).status).toBe(401)
  })

  it('end at sign-out, and the cookie is cleared', async () => {
    const cookie = await sessionCookie('approver', 'signout')
    const out = await call(accessRoutes.signOut, '/api/v1/session', { method: 'DELETE', as: { cookie } })
    expect(out.status).toBe(204)
    expect(out.headers.getSetCookie().join('\n')).toMatch(/toolroom\.session_token=;/)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })).status).toBe(401)
    expect(await lastAudit('auth.signed_out')).toMatchObject({ actorName: emailFor('approver', 'signout') })
  })

  it('refuse forged and tampered cookies', async () => {
    const cookie = await sessionCookie('admin')
    const tampered = cookie.replace(/toolroom\.session_token=([^.;]+)/, (_m, t: string) => `toolroom.session_token=${t.slice(0, -2)}xx`)
    expect(tampered).not.toBe(cookie)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie: tampered } })).status).toBe(401)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie: 'toolroom.session_token=made-up.value' } })).status).toBe(401)
  })
})

describe('CSRF protection for cookie-authenticated changes', () => {
  const manifest = (name: string) => ({ apiVersion: 'toolroom.dev/v1', kind: 'Tool', metadata: { name }, spec: {} })

  it('refuses a change with no Origin, or another site’s, and accepts our own', async () => {
    const cookie = await sessionCookie('operator')
    const noOrigin = await call(tools.create, '/api/v1/tools', { method: 'POST', as: { cookie, origin: null }, body: manifest('csrf.none') })
    expect(noOrigin.status).toBe(403)
    expect(noOrigin.json.detail).toMatch(/CSRF/)
    const foreign = await call(tools.create, '/api/v1/tools', {
      method: 'POST',
      as: { cookie, origin: 'https://evil.example' },
      body: manifest('csrf.foreign'),
    })
    expect(foreign.status).toBe(403)
    expect(foreign.contentType).toBe('application/problem+json')
    const sameSite = await call(tools.create, '/api/v1/tools', {
      method: 'POST',
      as: { cookie, origin: null },
      headers: { 'sec-fetch-site': 'same-origin' },
      body: { nothing: true },
    })
    expect(sameSite.status).not.toBe(403)
    const own = await call(tools.create, '/api/v1/tools', { method: 'POST', as: { cookie }, body: { nothing: true } })
    expect(own.status).toBe(422) // through the CSRF check, stopped by validation
    // Reading needs no Origin.
    expect((await call(tools.list, '/api/v1/tools', { as: { cookie, origin: null } })).status).toBe(200)
  })

  it('does not apply to bearer tokens (browsers never send them on their own)', async () => {
    const cookie = await sessionCookie('operator')
    const { token } = await tokenFor(cookie, ['write'])
    const res = await call(tools.create, '/api/v1/tools', {
      method: 'POST',
      as: { token },
      headers: { origin: 'https://evil.example' },
      body: { nothing: true },
    })
    expect(res.status).toBe(422)
  })

  it('checks sign-in, sign-out and password changes too, and tells scripts what to send', async () => {
    const { email } = await ensureUser('viewer')
    const noOrigin = await call(accessRoutes.signIn, '/api/v1/session', {
      method: 'POST',
      as: 'none',
      // As the front passes it on: the Host it was reached at, and the peer.
      headers: { ...frontPeerHeaders(someIp()), 'x-forwarded-host': new URL(TEST_ORIGIN).host },
      body: { email, password: PASSWORD },
    })
    expect(noOrigin.status).toBe(403)
    expect(noOrigin.contentType).toBe('application/problem+json')
    expect(noOrigin.json.detail).toContain(`Origin: ${TEST_ORIGIN}`)
    expect(noOrigin.json.detail).toMatch(/API token/)
    expect(noOrigin.headers.getSetCookie()).toEqual([])

    const cookie = await sessionCookie('viewer', 'csrf-out')
    for (const origin of [null, 'https://evil.example']) {
      const out = await call(accessRoutes.signOut, '/api/v1/session', { method: 'DELETE', as: { cookie, origin } })
      expect(out.status).toBe(403)
      const password = await call(accessRoutes.changeOwnPassword, '/api/v1/session/password', {
        method: 'PUT',
        as: { cookie, origin },
        body: { currentPassword: PASSWORD, newPassword: 'another long password' },
      })
      expect(password.status).toBe(403)
      // better-auth's own sign-out endpoint follows the same rule.
      const headers: Record<string, string> = { cookie, 'content-type': 'application/json' }
      if (origin) headers.origin = origin
      const direct = await authHandler(new Request(`${TEST_ORIGIN}/api/auth/sign-out`, { method: 'POST', headers, body: '{}' }))
      expect(direct.status).toBe(403)
      expect(direct.headers.get('content-type')).toBe('application/problem+json')
      expect(((await direct.json()) as { detail: string }).detail).toMatch(/CSRF/)
    }
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })).status).toBe(200)
    const own = await authHandler(
      new Request(`${TEST_ORIGIN}/api/auth/sign-out`, {
        method: 'POST',
        headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        body: '{}',
      }),
    )
    expect(own.status).toBe(200)
    expect((await call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })).status).toBe(401)
  })

  it('protects the sign-in form from other sites too', async () => {
    const { email } = await ensureUser('viewer')
    const res = await call(accessRoutes.signIn, '/api/v1/session', {
      method: 'POST',
      as: 'none',
      headers: { origin: 'https://evil.example', ...frontPeerHeaders(someIp()) },
      body: { email, password: PASSWORD },
    })
    expect(res.status).toBe(403)
  })
})

describe('API tokens', () => {
  it('are shown once, stored hashed, and work as bearer credentials', async () => {
    const cookie = await sessionCookie('operator')
    const created = await call(accessRoutes.createToken, '/api/v1/tokens', { method: 'POST', as: { cookie }, body: { name: 'ci', scopes: ['read', 'write'] } })
    expect(created.status).toBe(201)
    expect(created.json.token).toMatch(/^trk_/)
    expect(created.json).toMatchObject({ name: 'ci', scopes: ['read', 'write'], status: 'active', owner: emailFor('operator') })
    expect(new Date(created.json.expiresAt).getTime()).toBeGreaterThan(Date.now() + 89 * 86_400_000)
    const row = await prisma.apiToken.findUniqueOrThrow({ where: { id: created.json.id } })
    expect(row.hash).not.toContain(created.json.token)
    expect(JSON.stringify(row)).not.toContain(created.json.token.slice(10))
    expect(row.lastUsedAt).toBeNull()

    const token = created.json.token
    const me = await call(accessRoutes.whoAmI, '/api/v1/session', { as: { token } })
    expect(me.json).toMatchObject({ kind: 'token', roles: ['operator'], scopes: ['read', 'write'] })
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull()

    const list = await call(accessRoutes.listTokens, '/api/v1/tokens', { as: { cookie } })
    const listed = list.json.items.find((t: { id: string }) => t.id === row.id)
    expect(listed).toMatchObject({ hint: row.hint, lastUsedAt: expect.any(String) })
    expect(JSON.stringify(list.json)).not.toContain(token)
    expect(await lastAudit('token.created')).toMatchObject({ resourceId: row.id, actorName: emailFor('operator') })
  })

  it('with a read scope are refused on writes', async () => {
    const cookie = await sessionCookie('admin')
    const { token } = await tokenFor(cookie, ['read'])
    expect((await call(tools.list, '/api/v1/tools', { as: { token } })).status).toBe(200)
    const write = await call(tools.create, '/api/v1/tools', { method: 'POST', as: { token }, body: { nothing: true } })
    expect(write.status).toBe(403)
    expect(write.json.detail).toMatch(/"write" permission/)
    expect((await call(accessRoutes.listUsers, '/api/v1/users', { as: { token } })).status).toBe(403)
  })

  it('cannot carry more than the creator’s role', async () => {
    const cookie = await sessionCookie('viewer')
    const res = await call(accessRoutes.createToken, '/api/v1/tokens', { method: 'POST', as: { cookie }, body: { name: 'sneaky', scopes: ['read', 'write'] } })
    expect(res.status).toBe(403)
    expect(res.json.errors[0]).toMatchObject({ field: 'scopes', rule: 'within-own-role' })
    // A read-scoped token cannot mint a write-scoped one either.
    const { token } = await tokenFor(await sessionCookie('admin'), ['read'])
    expect((await call(accessRoutes.createToken, '/api/v1/tokens', { method: 'POST', as: { token }, body: { name: 'up', scopes: ['write'] } })).status).toBe(
      403,
    )
  })

  it('cannot outgrow the token that mints or revokes them', async () => {
    const cookie = await sessionCookie('admin', 'minting')
    const create = (token: string, body: Record<string, unknown>) =>
      call(accessRoutes.createToken, '/api/v1/tokens', { method: 'POST', as: { token }, body: { name: 'minted', scopes: ['read'], ...body } })
    const revoke = (token: string, id: string) => call(accessRoutes.revokeToken, `/api/v1/tokens/${id}`, { method: 'DELETE', params: { id }, as: { token } })
    const read = await tokenFor(cookie, ['read'], { expiresInDays: null })
    const write = await tokenFor(cookie, ['write'], { expiresInDays: 10 })
    const admin = await tokenFor(cookie, ['admin'], { expiresInDays: null })

    // A read token makes no tokens (not even read ones that never expire) and revokes none.
    const minted = await create(read.token, { expiresInDays: null })
    expect(minted.status).toBe(403)
    expect(minted.json.errors).toEqual([expect.objectContaining({ rule: 'token-needs-write' })])
    const revoked = await revoke(read.token, write.id)
    expect(revoked.status).toBe(403)
    expect(revoked.json.errors[0]).toMatchObject({ rule: 'token-needs-write' })
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: write.id } })).revokedAt).toBeNull()

    // A write token that expires in 10 days mints tokens that expire no later, with its scopes or fewer.
    const forever = await create(write.token, { expiresInDays: null })
    expect(forever.status).toBe(403)
    expect(forever.json.errors).toEqual([expect.objectContaining({ field: 'expiresInDays', rule: 'within-own-expiry' })])
    expect((await create(write.token, { expiresInDays: 11 })).json.errors).toEqual([expect.objectContaining({ rule: 'within-own-expiry' })])
    expect((await create(write.token, { scopes: ['approve'], expiresInDays: 5 })).json.errors).toEqual([
      expect.objectContaining({ field: 'scopes', rule: 'within-own-role' }),
    ])
    const own = (await prisma.apiToken.findUniqueOrThrow({ where: { id: write.id } })).expiresAt!
    const byDefault = await create(write.token, { scopes: ['read', 'write'] })
    expect(byDefault.status).toBe(201)
    expect(new Date(byDefault.json.expiresAt).getTime()).toBe(own.getTime())
    expect((await create(write.token, { expiresInDays: 3 })).status).toBe(201)

    // It may revoke tokens within its scopes (and itself), not its owner's admin token.
    expect((await revoke(write.token, admin.id)).json.errors[0]).toMatchObject({ rule: 'within-own-role' })
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: admin.id } })).revokedAt).toBeNull()
    expect((await revoke(write.token, read.id)).status).toBe(200)

    // A token without expiry may mint any expiry, never included.
    expect((await create(admin.token, { scopes: ['admin'], expiresInDays: null })).status).toBe(201)
    expect((await revoke(admin.token, write.id)).status).toBe(200)
  })

  it('follow their creator’s role when it changes', async () => {
    const { id } = await ensureUser('operator', 'demoted')
    const { token } = await tokenFor(await sessionCookie('operator', 'demoted'), ['write'])
    expect((await call(tools.create, '/api/v1/tools', { method: 'POST', as: { token }, body: { nothing: true } })).status).toBe(422)
    await call(accessRoutes.changeUser, `/api/v1/users/${id}`, { method: 'PATCH', params: { id }, body: { role: 'viewer' } })
    expect((await call(tools.create, '/api/v1/tools', { method: 'POST', as: { token }, body: { nothing: true } })).status).toBe(403)
  })

  it('stop working when expired or revoked', async () => {
    const cookie = await sessionCookie('operator')
    const { token, id } = await tokenFor(cookie, ['read'], { expiresInDays: 1 })
    // Authenticated tokens are remembered for a while (lib/auth/api-token-cache.ts), never past their
    // expiry: with this process remembering them for a minute, a token expiring in a few seconds is
    // refused when it expires, not when the minute is over.
    const cacheMs = process.env.TOOLROOM_API_TOKEN_CACHE_MS
    process.env.TOOLROOM_API_TOKEN_CACHE_MS = '60000'
    reloadConfig()
    try {
      await prisma.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() + 5000) } })
      expect((await call(tools.list, '/api/v1/tools', { as: { token } })).status).toBe(200)
      await until('the expired token to be refused', async () => (await call(tools.list, '/api/v1/tools', { as: { token } })).status === 401, {
        timeoutMs: 30_000,
        everyMs: 100,
      })
    } finally {
      if (cacheMs === undefined) delete process.env.TOOLROOM_API_TOKEN_CACHE_MS
      else process.env.TOOLROOM_API_TOKEN_CACHE_MS = cacheMs
      reloadConfig()
    }

    const second = await tokenFor(cookie, ['read'], { expiresInDays: null })
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: second.id } })).expiresAt).toBeNull()
    const revoked = await call(accessRoutes.revokeToken, `/api/v1/tokens/${second.id}`, { method: 'DELETE', params: { id: second.id }, as: { cookie } })
    expect(revoked.status).toBe(200)
    expect(revoked.json.status).toBe('revoked')
    expect((await call(tools.list, '/api/v1/tools', { as: { token: second.token } })).status).toBe(401)
    expect(await lastAudit('token.revoked')).toMatchObject({ resourceId: second.id })
  })

  it('revoked by another process stop working within the cache time (TOOLROOM_API_TOKEN_CACHE_MS, 2 s)', async () => {
    const cookie = await sessionCookie('operator')
    const { token, id } = await tokenFor(cookie, ['read'], { expiresInDays: null })
    expect((await call(tools.list, '/api/v1/tools', { as: { token } })).status).toBe(200)
    // Written past this process, as another web process's revocation would be.
    await prisma.apiToken.update({ where: { id }, data: { revokedAt: new Date() } })
    // Refused once this process's cached verdict is older than the cache time, whenever that comes.
    await until('the revoked token to be refused', async () => (await call(tools.list, '/api/v1/tools', { as: { token } })).status === 401, {
      timeoutMs: 20_000,
      everyMs: 100,
    })
  })

  it('of others cannot be seen or revoked, except by admins', async () => {
    const owner = await sessionCookie('operator')
    const { id } = await tokenFor(owner, ['read'])
    const other = await sessionCookie('approver')
    expect((await call(accessRoutes.listTokens, '/api/v1/tokens', { as: { cookie: other } })).json.items.map((t: { id: string }) => t.id)).not.toContain(id)
    expect((await call(accessRoutes.revokeToken, `/api/v1/tokens/${id}`, { method: 'DELETE', params: { id }, as: { cookie: other } })).status).toBe(404)
    const admin = await sessionCookie('admin')
    expect((await call(accessRoutes.listTokens, '/api/v1/tokens', { as: { cookie: admin } })).json.items.map((t: { id: string }) => t.id)).toContain(id)
    expect((await call(accessRoutes.revokeToken, `/api/v1/tokens/${id}`, { method: 'DELETE', params: { id }, as: { cookie: admin } })).status).toBe(200)
  })

  it('answer hostile bodies with problem+json', async () => {
    const cases: [unknown, string | undefined, number][] = [
      ['[1,2', 'application/json', 400],
      [{ name: 'x', scopes: 'admin' }, undefined, 422],
      [{ name: 'x', scopes: ['root'] }, undefined, 422],
      [{ name: '', scopes: ['read'] }, undefined, 422],
      [{ name: 'x', scopes: ['read'], expiresInDays: -1 }, undefined, 422],
      [{ name: 'x', scopes: ['read'], userId: 'someone-else' }, undefined, 422],
      [{ name: 'x'.repeat(5000), scopes: ['read'] }, undefined, 413],
    ]
    for (const [body, contentType, status] of cases) {
      const res = await call(accessRoutes.createToken, '/api/v1/tokens', { method: 'POST', body, contentType })
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status)
      expect(res.contentType).toBe('application/problem+json')
    }
    expect((await call(accessRoutes.revokeToken, '/api/v1/tokens/not-a-uuid', { method: 'DELETE', params: { id: 'not-a-uuid' } })).status).toBe(400)
    expect((await call(tools.list, '/api/v1/tools', { as: { token: 'trk_' + 'A'.repeat(43) } })).status).toBe(401)
    expect((await call(tools.list, '/api/v1/tools', { as: 'none', headers: { authorization: 'Bearer ' + 'x'.repeat(5000) } })).status).toBe(401)
  })
})

describe('TOOLROOM_ADMIN_TOKEN', () => {
  it('becomes an admin token at start, is replaced when the value changes, and revoked when unset', async () => {
    const first = 'trk_' + 'a1'.repeat(20)
    const second = 'trk_' + 'b2'.repeat(20)
    expect(await ensureEnvAdminToken(first)).toBe('created')
    expect(await ensureEnvAdminToken(first)).toBe('unchanged')
    expect((await call(accessRoutes.listUsers, '/api/v1/users', { as: { token: first } })).status).toBe(200)
    expect(await ensureEnvAdminToken(second)).toBe('replaced')
    expect((await call(accessRoutes.listUsers, '/api/v1/users', { as: { token: first } })).status).toBe(401)
    expect((await call(accessRoutes.listUsers, '/api/v1/users', { as: { token: second } })).status).toBe(200)
    expect(await ensureEnvAdminToken(undefined)).toBe('revoked')
    expect((await call(accessRoutes.listUsers, '/api/v1/users', { as: { token: second } })).status).toBe(401)
    expect(() => parseConfig({ TOOLROOM_ADMIN_TOKEN: 'too-short' })).toThrow(
      /TOOLROOM_ADMIN_TOKEN must be `trk_` followed by 32 to 200 letters, digits, `-` or `_`/,
    )
  })
})

describe('People API', () => {
  it('creates a person with a generated password shown once, who can then sign in', async () => {
    const email = `new.${Date.now()}@toolroom.test`
    const res = await call(accessRoutes.createUser, '/api/v1/users', { method: 'POST', body: { email, role: 'approver' } })
    expect(res.status).toBe(201)
    expect(res.json.user).toMatchObject({ email, role: 'approver', disabled: false, signIn: ['credential'] })
    expect(res.json.password.length).toBeGreaterThanOrEqual(20)
    expect((await signIn(email, res.json.password)).status).toBe(200)
    expect((await call(accessRoutes.createUser, '/api/v1/users', { method: 'POST', body: { email, role: 'viewer' } })).status).toBe(409)
    const list = await call(accessRoutes.listUsers, '/api/v1/users')
    expect(list.json.items.map((u: { email: string }) => u.email)).toContain(email)
    expect(JSON.stringify(list.json)).not.toMatch(/password|\$scrypt|:[0-9a-f]{32}/)
  })

  it('refuses hostile input and weak passwords', async () => {
    for (const body of [
      { email: 'x', role: 'viewer' },
      { email: 'a@b.test', role: 'root' },
      { email: 'a@b.test', role: 'viewer', password: 'short' },
      { email: 'a@b.test', role: 'viewer', isAdmin: true },
    ]) {
      const res = await call(accessRoutes.createUser, '/api/v1/users', { method: 'POST', body })
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(res.contentType).toBe('application/problem+json')
    }
  })

  it('never leaves Toolroom without an enabled admin', async () => {
    await prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'viewer' } })
    const { id } = await ensureUser('admin', 'last')
    const cookie = await sessionCookie('admin', 'last')
    const demote = await call(accessRoutes.changeUser, `/api/v1/users/${id}`, { method: 'PATCH', params: { id }, as: { cookie }, body: { role: 'operator' } })
    expect(demote.status).toBe(409)
    expect((await call(accessRoutes.removeUser, `/api/v1/users/${id}`, { method: 'DELETE', params: { id }, as: { cookie } })).status).toBe(409)
    const other = await ensureUser('viewer', 'removable')
    expect((await call(accessRoutes.removeUser, `/api/v1/users/${other.id}`, { method: 'DELETE', params: { id: other.id }, as: { cookie } })).status).toBe(204)
    expect(await prisma.user.findUnique({ where: { id: other.id } })).toBeNull()
    expect(await lastAudit('user.deleted')).toMatchObject({ resource: other.email })
    // Restore the fixture admins for the other tests.
    await prisma.user.updateMany({ where: { email: { startsWith: 'admin.' } }, data: { role: 'admin' } })
  })
})
