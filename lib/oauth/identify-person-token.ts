// Which agent, acting for which person, a token issued by token exchange (lib/oauth/exchange-token.ts)
// speaks for at `/mcp`: only while it is unexpired, was issued for this very resource, the agent's
// credential that asked for it is neither revoked nor expired, and the person's Toolroom account (if
// they have one) is enabled, and their IdentityProvider is still trusted. Anything else is no identity at all.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { DELEGATION_REFS, delegationStanding } from '@/lib/identity/delegation-standing'
import { hashOAuthToken } from '@/lib/oauth/oauth-secrets'
import { OAUTH_PREFIXES } from '@/lib/oauth/oauth-settings'
import { db, sql } from '@/lib/sql'

export async function identifyPersonToken(token: string, resource: string): Promise<{ identity: AgentIdentity | null; expiresAt: Date | null }> {
  if (!token.startsWith(OAUTH_PREFIXES.opaqueAccessToken)) return { identity: null, expiresAt: null }
  const hash = hashOAuthToken(token.slice(OAUTH_PREFIXES.opaqueAccessToken.length))
  const standing = delegationStanding(DELEGATION_REFS)
  const row = await db
    .selectFrom('DelegatedAccessToken as d')
    .innerJoin('Agent as a', 'a.id', 'd.agentId')
    .innerJoin('AgentCredential as c', 'c.id', 'd.credentialId')
    .leftJoin('User as u', 'u.id', 'd.userId')
    .select([
      sql<string>`d.id::text`.as('id'),
      'd.agentId',
      'a.name',
      'a.namespace',
      'd.credentialId',
      'd.issuer',
      'd.subject',
      'd.displayName',
      'd.email',
      'd.claims',
      'd.resource',
      'd.expiresAt',
      standing.credentialUsable.as('credentialUsable'),
      standing.personUsable.as('personUsable'),
      standing.providerTrusted.as('providerTrusted'),
    ])
    .where('d.hash', '=', hash)
    .executeTakeFirst()
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
        claims: row.claims as Record<string, unknown>,
        delegationId: row.id,
      },
    },
    expiresAt: row.expiresAt,
  }
}
