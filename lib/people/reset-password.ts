// An admin sets a new password for someone who forgot theirs (or generates one, returned once).
// Every session of that person ends; their API tokens stay, as they do not depend on the password.
import { randomBytes } from 'node:crypto'
import { recordAuditEvent, type AuditActor } from '@/lib/audit/record-audit-event'
import { getAuth } from '@/lib/auth/better-auth'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import { MIN_PASSWORD_LENGTH } from './create-user'

export async function resetPassword(id: string, password: string | undefined, by: AuditActor, requestId?: string): Promise<{ password?: string }> {
  const generated = password === undefined ? randomBytes(18).toString('base64url') : undefined
  const next = password ?? generated!
  if (next.length < MIN_PASSWORD_LENGTH)
    throw new AppError('VALIDATION_FAILED', `the password must be at least ${MIN_PASSWORD_LENGTH} characters`, [{ field: 'password', rule: 'min-length', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }])
  const hash = await (await getAuth().$context).password.hash(next)
  await prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id }, select: { email: true, accounts: { where: { providerId: 'credential' }, select: { id: true } } } })
    if (!user) throw notFound(`user ${id}`)
    const [account] = user.accounts
    if (!account) throw new AppError('CONFLICT', `${user.email} signs in through single sign-on and has no password here`)
    await tx.account.update({ where: { id: account.id }, data: { password: hash } })
    await tx.session.deleteMany({ where: { userId: id } })
    await recordAuditEvent({ actor: by, action: 'user.password_reset', kind: 'User', resource: user.email, resourceId: id, detail: { generated: Boolean(generated), sessionsEnded: true }, requestId }, tx)
  })
  return generated ? { password: generated } : {}
}
