// Changing one's own password and an admin resetting someone's, against real better-auth on PostgreSQL.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { accessRoutes } from '@/lib/api/access-routes'
import { prisma } from '@/lib/db'
import { frontPeerHeaders } from '@/lib/request-origin/client-address'
import { call, type Caller, TEST_ORIGIN } from './helpers'
import { cookieFrom, ensureUser, PASSWORD, sessionCookie, signIn, someIp, tokenFor } from './access-fixtures'

const lastAudit = (action: string) => prisma.auditEvent.findFirst({ where: { action }, orderBy: { id: 'desc' } })
const whoAmI = (cookie: string) => call(accessRoutes.whoAmI, '/api/v1/session', { as: { cookie } })

function changePassword(cookie: string, body: unknown, ip = someIp(), contentType?: string) {
  return call(accessRoutes.changeOwnPassword, '/api/v1/session/password', { method: 'PUT', as: { cookie }, headers: frontPeerHeaders(ip), body, contentType })
}

function resetPassword(id: string, body: unknown = {}, as: Caller = 'admin') {
  return call(accessRoutes.resetUserPassword, `/api/v1/users/${id}/password`, { method: 'POST', params: { id }, body, as })
}

describe('changing one’s own password', () => {
  it('needs the current password; ends the other sessions, keeps this one under a fresh cookie, and is recorded', async () => {
    const { email, id } = await ensureUser('operator', 'pw-own')
    const here = cookieFrom(await signIn(email))
    const elsewhere = cookieFrom(await signIn(email))
    const next = 'a brand new passphrase 2026'

    const wrong = await changePassword(here, { currentPassword: 'not my password at all', newPassword: next })
    expect(wrong.status).toBe(403)
    expect(wrong.contentType).toBe('application/problem+json')
    expect(wrong.json.errors).toEqual([expect.objectContaining({ field: 'currentPassword', rule: 'matches' })])
    expect((await lastAudit('auth.password_change_failed'))?.actorId).toBe(id)
    expect((await whoAmI(elsewhere)).status).toBe(200)

    const changed = await changePassword(here, { currentPassword: PASSWORD, newPassword: next })
    expect(changed.status).toBe(204)
    const fresh = cookieFrom(changed)
    expect(fresh).toMatch(/toolroom\.session_token=/)
    expect((await whoAmI(fresh)).json).toMatchObject({ id, name: email })
    expect((await whoAmI(elsewhere)).status).toBe(401)
    expect((await signIn(email, PASSWORD)).status).toBe(401)
    expect((await signIn(email, next)).status).toBe(200)
    expect(await lastAudit('user.password_changed')).toMatchObject({ actorId: id, resourceId: id })
    // Put the fixture back for the other tests that sign in as this person.
    expect((await changePassword(fresh, { currentPassword: next, newPassword: PASSWORD })).status).toBe(204)
  })

  it('is for signed-in people only: an API token of theirs is refused', async () => {
    const cookie = await sessionCookie('admin', 'pw-token')
    const { token } = await tokenFor(cookie, ['read', 'write', 'approve', 'admin'])
    const res = await call(accessRoutes.changeOwnPassword, '/api/v1/session/password', {
      method: 'PUT',
      as: { token },
      body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase 2026' },
    })
    expect(res.status).toBe(403)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'authorization', rule: 'session-only' })])
    expect((await signIn((await ensureUser('admin', 'pw-token')).email)).status).toBe(200)
  })

  it('answers weak, malformed, oversized and hostile bodies with problem+json and changes nothing', async () => {
    const { email } = await ensureUser('viewer', 'pw-hostile')
    const cookie = cookieFrom(await signIn(email))
    const cases: [unknown, string | undefined, number, string?][] = [
      [{ currentPassword: PASSWORD, newPassword: 'short' }, undefined, 422, 'newPassword'],
      [{ newPassword: 'a brand new passphrase 2026' }, undefined, 422, 'currentPassword'],
      [{ currentPassword: PASSWORD, newPassword: 'a brand new passphrase 2026', revokeOtherSessions: false }, undefined, 422],
      [{ currentPassword: PASSWORD, newPassword: 'x'.repeat(10_000) }, undefined, 413],
      ['{"currentPassword": ', 'application/json', 400],
      ['currentPassword=x', 'application/x-www-form-urlencoded', 415],
    ]
    for (const [body, contentType, status, field] of cases) {
      const res = await changePassword(cookie, body, someIp(), contentType)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status)
      expect(res.contentType).toBe('application/problem+json')
      if (field) expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field)
    }
    expect((await whoAmI(cookie)).status).toBe(200)
    expect((await signIn(email)).status).toBe(200)
  })

  it('limits guesses of the current password per client address, like sign-in', async () => {
    const { email } = await ensureUser('approver', 'pw-guess')
    const cookie = cookieFrom(await signIn(email))
    const ip = someIp()
    for (let i = 0; i < 10; i++)
      expect((await changePassword(cookie, { currentPassword: `guess number ${i}`, newPassword: 'a brand new passphrase 2026' }, ip)).status).toBe(403)
    const blocked = await changePassword(cookie, { currentPassword: PASSWORD, newPassword: 'a brand new passphrase 2026' }, ip)
    expect(blocked.status).toBe(429)
    expect(blocked.contentType).toBe('application/problem+json')
    expect((await signIn(email)).status).toBe(200)
  })

  it('refuses a change from another site (CSRF), as every cookie-authenticated change is', async () => {
    const cookie = await sessionCookie('operator', 'pw-csrf')
    const res = await call(accessRoutes.changeOwnPassword, '/api/v1/session/password', {
      method: 'PUT',
      as: { cookie, origin: 'https://evil.example' },
      body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase 2026' },
    })
    expect(res.status).toBe(403)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(TEST_ORIGIN).not.toBe('https://evil.example')
  })
})

describe('an admin resetting a password', () => {
  it('generates one shown once, ends every session of that person, and records it', async () => {
    const { email, id } = await ensureUser('approver', 'pw-reset')
    const cookie = cookieFrom(await signIn(email))
    const res = await resetPassword(id)
    expect(res.status).toBe(200)
    expect(res.json.password.length).toBeGreaterThanOrEqual(20)
    expect((await whoAmI(cookie)).status).toBe(401)
    expect((await signIn(email, PASSWORD)).status).toBe(401)
    expect((await signIn(email, res.json.password)).status).toBe(200)
    expect(await lastAudit('user.password_reset')).toMatchObject({ resource: email, resourceId: id, detail: { generated: true, sessionsEnded: true } })
    expect(JSON.stringify(await lastAudit('user.password_reset'), (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(res.json.password)

    const chosen = await resetPassword(id, { password: PASSWORD })
    expect(chosen.status).toBe(200)
    expect(chosen.json).toEqual({})
    expect((await signIn(email)).status).toBe(200)
  })

  it('refuses weak passwords, unknown people, people who sign in only through single sign-on, and non-admins', async () => {
    const { id } = await ensureUser('viewer', 'pw-reset-bad')
    for (const body of [{ password: 'short' }, { password: 'a brand new passphrase 2026', role: 'admin' }]) {
      const res = await resetPassword(id, body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(res.contentType).toBe('application/problem+json')
    }
    expect((await resetPassword(randomUUID())).status).toBe(404)

    const ssoOnly = await prisma.user.create({ data: { email: `sso.${Date.now()}@toolroom.test`, name: 'SSO only', role: 'viewer', emailVerified: true } })
    const sso = await resetPassword(ssoOnly.id)
    expect(sso.status).toBe(409)
    expect(sso.json.detail).toMatch(/single sign-on/)
    expect(await prisma.account.count({ where: { userId: ssoOnly.id } })).toBe(0)

    const operator = await sessionCookie('operator', 'pw-reset-op')
    const refused = await resetPassword(id, {}, { cookie: operator })
    expect(refused.status).toBe(403)
    expect((await signIn((await ensureUser('viewer', 'pw-reset-bad')).email)).status).toBe(200)
  })
})
