// RFC 7009 revocation of the `tro_…` tokens token exchange issued (lib/oauth/exchange-token.ts), at
// the revocation endpoint better-auth answers for its own tokens. Revoking deletes the token's record,
// and with it the person's sealed subject token: the gateway refuses the token within
// TOOLROOM_AGENT_AUTH_CACHE_MS, and no upstream token is exchanged for it again (at once). Presenting
// the token is enough: whoever holds a bearer token may already use it, so ending it gives them nothing
// (docs/design/access.md#on-whose-behalf). Any other token is better-auth's to revoke.
import 'server-only'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { hashOAuthToken } from '@/lib/oauth/oauth-secrets'
import { OAUTH_PREFIXES } from '@/lib/oauth/oauth-settings'

/** The revocation's answer if `body` names an exchanged token (RFC 7009 §2.2: 200, empty), else null. */
export async function revokeDelegatedToken(body: string, requestId?: string): Promise<Response | null> {
  const token = new URLSearchParams(body).get('token')
  if (!token?.startsWith(OAUTH_PREFIXES.opaqueAccessToken)) return null
  const hash = hashOAuthToken(token.slice(OAUTH_PREFIXES.opaqueAccessToken.length))
  const revoked = await prisma.$transaction(async (tx) => {
    const rows = await tx.delegatedAccessToken.findMany({
      where: { hash },
      select: { agentId: true, credentialId: true, issuer: true, subject: true, displayName: true },
    })
    if (rows.length === 0) return false
    await tx.delegatedAccessToken.deleteMany({ where: { hash } })
    const row = rows[0]
    const agent = await tx.agent.findUnique({ where: { id: row.agentId }, select: { name: true, namespace: true } })
    await recordAuditEvent(
      {
        actor: { kind: 'agent', id: row.agentId, name: agent ? `${agent.namespace}/${agent.name}` : row.agentId },
        action: 'token.revoked',
        kind: 'Agent',
        namespace: agent?.namespace,
        resource: agent?.name,
        resourceId: row.agentId,
        detail: { onBehalfOf: { issuer: row.issuer, subject: row.subject, displayName: row.displayName }, credentialId: row.credentialId },
        requestId,
      },
      tx,
    )
    return true
  })
  return revoked ? new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } }) : null
}
