// An admin changes someone's role, name or disables them; removing someone deletes them with their
// sessions and tokens. Neither may leave Toolroom without an enabled admin.
import 'server-only'
import { recordAuditEvent, type AuditActor } from '@/lib/audit/record-audit-event'
import type { Role } from '@/lib/auth/access-rules'
import { forgetTokenActors } from '@/lib/auth/api-token-cache'
import { forgetAgentCredentials } from '@/lib/auth/agent-identity-cache'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { Prisma } from '@/lib/generated/prisma/client'
import { toUserView, type UserView } from './user-view'
import { lockForTransaction } from '@/lib/sql'

export interface UserChange {
  role?: Role
  name?: string
  disabled?: boolean
}

export async function changeUser(id: string, change: UserChange, by: AuditActor, requestId?: string): Promise<UserView> {
  return prisma
    .$transaction(async (tx) => {
      const before = await lockUser(tx, id)
      const losesAdmin = before.role === 'admin' && !before.disabledAt && ((change.role && change.role !== 'admin') || change.disabled === true)
      if (losesAdmin) await keepOneAdmin(tx, id)
      const disabledAt = change.disabled === undefined ? before.disabledAt : change.disabled ? (before.disabledAt ?? new Date()) : null
      const after = await tx.user.update({
        where: { id },
        data: { role: change.role ?? before.role, name: change.name?.trim() || before.name, disabledAt },
        include: { accounts: { select: { providerId: true } } },
      })
      // A demoted or disabled person's open sessions must not keep the old powers.
      if (change.disabled || (change.role && change.role !== before.role)) await tx.session.deleteMany({ where: { userId: id } })
      await recordAuditEvent(
        { actor: by, action: 'user.updated', kind: 'User', resource: after.email, resourceId: id, before: summary(before), after: summary(after), requestId },
        tx,
      )
      return toUserView(after)
    })
    .finally(() => {
      forgetTokenActors() // their API tokens carry the role too
      // Agents acting for them (consent or token exchange) must stop at once in this process.
      if (change.disabled) forgetAgentCredentials()
    })
}

export async function removeUser(id: string, by: AuditActor, requestId?: string): Promise<void> {
  if (by.id === id) throw new AppError('CONFLICT', 'you cannot remove yourself; ask another admin')
  await prisma
    .$transaction(async (tx) => {
      const before = await lockUser(tx, id)
      if (before.role === 'admin' && !before.disabledAt) await keepOneAdmin(tx, id)
      await tx.user.delete({ where: { id } })
      await recordAuditEvent(
        { actor: by, action: 'user.deleted', kind: 'User', resource: before.email, resourceId: id, before: summary(before), requestId },
        tx,
      )
    })
    .finally(() => {
      forgetTokenActors()
      forgetAgentCredentials()
    })
}

async function lockUser(tx: Prisma.TransactionClient, id: string) {
  // Serialise admin changes so two admins demoting each other at once cannot both succeed.
  await lockForTransaction(tx, 'toolroom.users')
  const user = await tx.user.findUnique({ where: { id } })
  if (!user) throw notFound(`user ${id}`)
  return user
}

async function keepOneAdmin(tx: Prisma.TransactionClient, exceptId: string) {
  const others = await tx.user.count({ where: { role: 'admin', disabledAt: null, id: { not: exceptId } } })
  if (others === 0) throw new AppError('CONFLICT', 'this is the last enabled admin; make someone else admin first')
}

const summary = (u: { email: string; name: string; role: string; disabledAt: Date | null }) => ({
  email: u.email,
  name: u.name,
  role: u.role,
  disabled: u.disabledAt !== null,
})
