// For automation (CI, GitOps): TOOLROOM_ADMIN_TOKEN names an admin-scope API token that exists as
// long as the variable is set. Only its hash is stored; a changed value replaces the old token, an
// unset variable revokes it. Its form (`trk_` and at least 32 characters) is lib/config.ts's rule.
import 'server-only'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { forgetTokenActors } from '@/lib/auth/api-token-cache'
import { prisma } from '@/lib/db'
import { lockForTransaction } from '@/lib/sql'
import { wantedEnvTokenHash } from './env-admin-token-rule'

const ENV_TOKEN_NAME = 'TOOLROOM_ADMIN_TOKEN'
const SYSTEM = { kind: 'system' as const, name: 'toolroom start' }

export type EnvTokenOutcome = 'created' | 'unchanged' | 'replaced' | 'revoked' | 'none'

export async function ensureEnvAdminToken(value: string | undefined): Promise<EnvTokenOutcome> {
  const token = value?.trim()
  const hash = wantedEnvTokenHash(token)
  return prisma
    .$transaction(
      async (tx) => {
        await lockForTransaction(tx, 'toolroom.env-admin-token')
        // Every live token of the variable's origin but the one it names now is revoked: were there
        // ever two (a row written by hand, a restore), a value the variable no longer holds must not
        // stay an admin token because the other was the one found.
        const live = await tx.apiToken.findMany({ where: { origin: 'env', revokedAt: null }, orderBy: { createdAt: 'asc' } })
        const kept = live.find((t) => t.hash === hash)
        const revoked = live.filter((t) => t !== kept)
        for (const old of revoked) {
          await tx.apiToken.update({ where: { id: old.id }, data: { revokedAt: new Date() } })
          await recordAuditEvent(
            {
              actor: SYSTEM,
              action: 'token.revoked',
              kind: 'ApiToken',
              resource: old.name,
              resourceId: old.id,
              detail: { reason: token ? 'TOOLROOM_ADMIN_TOKEN changed' : 'TOOLROOM_ADMIN_TOKEN unset' },
            },
            tx,
          )
        }
        if (kept) return revoked.length > 0 ? 'replaced' : 'unchanged'
        if (!token || !hash) return revoked.length > 0 ? 'revoked' : 'none'
        // The same value set again after a change back: revive that row rather than collide on the hash.
        const row = await tx.apiToken.upsert({
          where: { hash },
          create: { name: ENV_TOKEN_NAME, hash, hint: token.slice(0, 10), scopes: ['admin'], origin: 'env' },
          update: { revokedAt: null, expiresAt: null, scopes: ['admin'], origin: 'env', userId: null },
        })
        await recordAuditEvent(
          {
            actor: SYSTEM,
            action: 'token.created',
            kind: 'ApiToken',
            resource: row.name,
            resourceId: row.id,
            after: { hint: row.hint, scopes: ['admin'], origin: 'env' },
          },
          tx,
        )
        return revoked.length > 0 ? 'replaced' : 'created'
      },
      // Run once at start, beside everything else starting on a loaded machine: waiting a while for a
      // connection beats failing the start (Prisma's default wait is 2 s).
      { maxWait: 30_000, timeout: 30_000 },
    )
    .finally(forgetTokenActors)
}
