import 'server-only'
import { prisma } from '@/lib/db'
import { toUserView, type UserView } from './user-view'

/** Everyone, by email. Teams are small; the list is bounded all the same. */
export async function listUsers(limit = 1000): Promise<UserView[]> {
  const rows = await prisma.user.findMany({ orderBy: { email: 'asc' }, take: limit, include: { accounts: { select: { providerId: true } } } })
  return rows.map(toUserView)
}
