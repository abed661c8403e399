// An admin sets a new password for someone who forgot theirs (or generates one, returned once).
// Every session of that person ends; their API tokens stay, as they do not depend on the password.
import 'server-only'
import { recordAuditEvent, type AuditActor } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import { choosePassword, hashPassword } from './password'

export async function resetPassword(id: string, password: string | undefined, by: AuditActor, requestId?: string): Promise<{ password?: string }> {
  const { password: next, generated } = choosePassword(password)
  const hash = await hashPassword(next)
  await prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id }, select: { email: true, accounts: { where: { providerId: 'credential' }, select: { id: true } } } })
    if (!user) throw notFound(`user ${id}`)
    const [account] = user.accounts
    if (!account) throw new AppError('CONFLICT', `${user.email} signs in through single sign-on and has no password here`)
    await tx.account.update({ where: { id: account.id }, data: { password: hash } })
    await tx.session.deleteMany({ where: { userId: id } })
    await recordAuditEvent(
      {
        actor: by,
        action: 'user.password_reset',
        kind: 'User',
        resource: user.email,
        resourceId: id,
        detail: { generated: Boolean(generated), sessionsEnded: true },
        requestId,
      },
      tx,
    )
  })
  return generated ? { password: generated } : {}
}
