import 'server-only'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { type Actor, isAllowed } from '@/lib/auth/access-rules'
import { forgetTokenActors } from '@/lib/auth/api-token-cache'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import { toApiTokenView, type ApiTokenView } from './api-token-view'
import { revokingProblem } from './token-limits'

/** Revokes a token at once. Someone else's token looks like no token at all, unless you are an admin. */
export async function revokeApiToken(id: string, by: Actor, requestId?: string): Promise<ApiTokenView> {
  return prisma
    .$transaction(async (tx) => {
      const row = await tx.apiToken.findUnique({ where: { id }, include: { user: { select: { email: true } } } })
      if (!row || (!isAllowed(by, 'admin') && row.userId !== (by.userId ?? null))) throw notFound(`API token ${id}`)
      const problem = revokingProblem(by, row)
      if (problem) throw new AppError('FORBIDDEN', problem.message, [problem])
      if (row.revokedAt) return toApiTokenView(row)
      const revoked = await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date() }, include: { user: { select: { email: true } } } })
      await recordAuditEvent(
        {
          actor: auditActorOf(by),
          action: 'token.revoked',
          kind: 'ApiToken',
          resource: row.name,
          resourceId: id,
          detail: { hint: row.hint, owner: row.user?.email ?? null },
          requestId,
        },
        tx,
      )
      return toApiTokenView(revoked)
    })
    .finally(forgetTokenActors)
}
