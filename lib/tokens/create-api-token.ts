// Issues an API token: the whole token is returned once, the database keeps its hash. Its scopes
// may not exceed what the creator could do themselves, nor outlive a minting token (token-limits.ts).
import 'server-only'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { type Actor, SCOPES, type Scope } from '@/lib/auth/access-rules'
import { issueToken } from '@/lib/auth/secret-token'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { toApiTokenView, type ApiTokenView } from './api-token-view'
import { defaultExpiry, mintingProblems } from './token-limits'

export interface NewApiToken {
  name: string
  scopes: Scope[]
  /** Days until it stops working; null for never. */
  expiresInDays?: number | null
}

const DEFAULT_TOKEN_DAYS = 90

export async function createApiToken(input: NewApiToken, by: Actor, requestId?: string): Promise<ApiTokenView & { token: string }> {
  const scopes = SCOPES.filter((s) => input.scopes.includes(s))
  const days = input.expiresInDays
  const expiresAt = days === undefined ? defaultExpiry(by, DEFAULT_TOKEN_DAYS) : days === null ? null : new Date(Date.now() + days * 86_400_000)
  const problems = mintingProblems(by, scopes, expiresAt)
  if (problems.length)
    throw new AppError('FORBIDDEN', `you cannot give a token more than you may do yourself: ${problems.map((p) => p.message).join('; ')}`, problems)
  const issued = issueToken('trk')
  return prisma.$transaction(async (tx) => {
    const row = await tx.apiToken.create({
      data: {
        name: input.name.trim(),
        hash: issued.hash,
        hint: issued.hint,
        scopes,
        userId: by.userId ?? null,
        expiresAt,
      },
      include: { user: { select: { email: true } } },
    })
    await recordAuditEvent(
      {
        actor: auditActorOf(by),
        action: 'token.created',
        kind: 'ApiToken',
        resource: row.name,
        resourceId: row.id,
        after: { name: row.name, hint: row.hint, scopes, expiresAt: row.expiresAt },
        requestId,
      },
      tx,
    )
    return { ...toApiTokenView(row), token: issued.token }
  })
}
