import 'server-only'
import type { Actor } from '@/lib/auth/access-rules'
import { isAllowed } from '@/lib/auth/access-rules'
import { prisma } from '@/lib/db'
import { toApiTokenView, type ApiTokenView } from './api-token-view'

/** Admins see everyone's tokens; everyone else their own. Newest first, bounded. */
export async function listApiTokens(actor: Actor, limit = 500): Promise<ApiTokenView[]> {
  const rows = await prisma.apiToken.findMany({
    where: isAllowed(actor, 'admin') ? {} : { userId: actor.userId ?? '' },
    orderBy: { createdAt: 'desc' },
    take: limit,
    include: { user: { select: { email: true } } },
  })
  const now = new Date()
  return rows.map((row) => toApiTokenView(row, now))
}
