// Creates a person who signs in with email and password. The password is hashed by better-auth's
// own hasher and stored the way it reads it back (a `credential` account), so sign-in is its code.
import 'server-only'
import { randomUUID } from 'node:crypto'
import { recordAuditEvents, type AuditActor } from '@/lib/audit/record-audit-event'
import type { Role } from '@/lib/auth/access-rules'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { choosePassword, hashPassword } from './password'
import { toUserView, type UserView } from './user-view'

export interface NewUser {
  email: string
  name?: string
  role: Role
  /** Generated (and returned once) when absent. */
  password?: string
}

export async function createUser(input: NewUser, by: AuditActor, requestId?: string): Promise<{ user: UserView; password?: string }> {
  const email = input.email.trim().toLowerCase()
  const { password, generated } = choosePassword(input.password)
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } }))
    throw new AppError('CONFLICT', `a user with email ${email} already exists`, [{ field: 'email', rule: 'unique', message: 'is already taken' }])

  const hash = await hashPassword(password)
  const id = randomUUID()
  const row = await prisma.$transaction(async (tx) => {
    const user = await tx.user.create({
      data: {
        id,
        email,
        name: input.name?.trim() || email.split('@')[0],
        role: input.role,
        emailVerified: true,
        accounts: { create: { id: randomUUID(), providerId: 'credential', accountId: id, password: hash } },
      },
      include: { accounts: { select: { providerId: true } } },
    })
    await recordAuditEvents(
      [{ actor: by, action: 'user.created', kind: 'User', resource: email, resourceId: id, after: { email, name: user.name, role: user.role }, requestId }],
      tx,
    )
    return user
  })
  return { user: toUserView(row), ...(generated ? { password: generated } : {}) }
}
