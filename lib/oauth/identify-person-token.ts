// Which agent, acting for which person, a token issued by token exchange (lib/oauth/exchange-token.ts)
// speaks for at `/mcp`: only while it is unexpired, was issued for this very resource, the agent's
// credential that asked for it is neither revoked nor expired, and the person's Toolroom account (if
// they have one) is enabled, and their IdentityProvider is still trusted. Anything else is no identity at all.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { prisma } from '@/lib/db'
import { hashOAuthToken } from '@/lib/oauth/oauth-secrets'
import { OAUTH_PREFIXES } from '@/lib/oauth/oauth-settings'

export async function identifyPersonToken(token: string, resource: string): Promise<{ identity: AgentIdentity | null; expiresAt: Date | null }> {
  if (!token.startsWith(OAUTH_PREFIXES.opaqueAccessToken)) return { identity: null, expiresAt: null }
  const hash = hashOAuthToken(token.slice(OAUTH_PREFIXES.opaqueAccessToken.length))
  const rows = await prisma.$queryRaw<
    Array<{
      id: string
      agentId: string
      name: string
      namespace: string
      credentialId: string
      issuer: string
      subject: string
      displayName: string
      email: string | null
      claims: Record<string, unknown>
      resource: string
      expiresAt: Date
      credentialUsable: boolean
      personUsable: boolean
      providerTrusted: boolean
    }>
  >`
    SELECT d.id::text AS id, d."agentId"::text AS "agentId", a.name, a.namespace, d."credentialId"::text AS "credentialId", d.issuer, d.subject, d."displayName", d.email,
           d.claims, d.resource, d."expiresAt",
           (c."revokedAt" IS NULL AND (c."expiresAt" IS NULL OR c."expiresAt" > now())) AS "credentialUsable",
           (d."userId" IS NULL OR u."disabledAt" IS NULL) AS "personUsable",
           EXISTS (SELECT 1 FROM "IdentityProvider" i WHERE i.issuer = d.issuer) AS "providerTrusted"
    FROM "DelegatedAccessToken" d
    JOIN "Agent" a ON a.id = d."agentId"
    JOIN "AgentCredential" c ON c.id = d."credentialId"
    LEFT JOIN "User" u ON u.id = d."userId"
    WHERE d.hash = ${hash}`
  const row = rows[0]
  if (!row) return { identity: null, expiresAt: null }
  const valid = row.expiresAt.getTime() > Date.now() && row.resource === resource && row.credentialUsable && row.personUsable && row.providerTrusted
  if (!valid) return { identity: null, expiresAt: row.expiresAt }
  return {
    identity: {
      kind: 'agent',
      agentId: row.agentId,
      name: row.name,
      namespace: row.namespace,
      credentialId: row.credentialId,
      person: {
        issuer: row.issuer,
        subject: row.subject,
        displayName: row.displayName,
        email: row.email,
        via: 'token_exchange',
        claims: row.claims,
        delegationId: row.id,
      },
    },
    expiresAt: row.expiresAt,
  }
}
