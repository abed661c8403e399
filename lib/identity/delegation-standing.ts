// Whether an agent may still act for a person it was given through token exchange
// (docs/design/access.md#on-whose-behalf): the agent's credential that asked is neither revoked nor
// expired, the person's Toolroom account (if they have one) still exists and is enabled, and their
// IdentityProvider is still trusted. For a person who consented here to an OAuth client, the client
// stands instead of the credential: enabled, and still acting as the same agent. The one statement of
// that rule, read where a tro_ token is presented (lib/oauth/identify-person-token.ts and, for
// consent, lib/oauth/identify-oauth-token.ts), where the person's token is exchanged for an upstream
// (lib/upstream-auth/exchange-for-upstream.ts) and where a held call runs once approved (lib/gateway/call-tool.ts).
import 'server-only'
import { db, sql } from '@/lib/sql'

/** Where a query finds the delegation's parts: the credential and user rows (joined, left joins allowed), and the columns naming them. */
export interface DelegationRefs {
  /** Alias of the joined AgentCredential row. */
  credential: string
  /** Alias of the joined User row. */
  user: string
  /** The column holding the person's Toolroom account id (null: none). */
  userId: string
  /** The column holding the person's issuer. */
  issuer: string
}

/** The refs of a query over `DelegatedAccessToken as d` joined to `AgentCredential as c` and `User as u`. */
export const DELEGATION_REFS: DelegationRefs = { credential: 'c', user: 'u', userId: 'd.userId', issuer: 'd.issuer' }

/** The rule's three parts as SQL booleans, for a query that joins the delegation's credential and user. */
export function delegationStanding(refs: DelegationRefs) {
  const c = (column: string) => sql.ref(`${refs.credential}.${column}`)
  const u = (column: string) => sql.ref(`${refs.user}.${column}`)
  return {
    credentialUsable: sql<boolean>`(${c('id')} IS NOT NULL AND ${c('revokedAt')} IS NULL AND (${c('expiresAt')} IS NULL OR ${c('expiresAt')} > now()))`,
    // A removed account is no more usable than a disabled one.
    personUsable: sql<boolean>`(${sql.ref(refs.userId)} IS NULL OR (${u('id')} IS NOT NULL AND ${u('disabledAt')} IS NULL))`,
    providerTrusted: sql<boolean>`EXISTS (SELECT 1 FROM "IdentityProvider" trusted WHERE trusted.issuer = ${sql.ref(refs.issuer)})`,
  }
}

/**
 * Whether the OAuth client `client` (an alias of a joined OauthClient row, left joins allowed) still
 * acts as the agent whose id is `agentId` (text): a revoked (disabled) client, a removed one or one
 * rebound to another agent acts for nobody it was consented for.
 */
export function oauthClientStanding(client: string, agentId: string) {
  const c = (column: string) => sql.ref(`${client}.${column}`)
  return sql<boolean>`(${c('clientId')} IS NOT NULL AND ${c('disabled')} IS NOT TRUE AND ${c('referenceId')} = ${sql.ref(agentId)})`
}

/** The part of the rule that no longer holds, or null when the agent may still act for the person. */
export type DelegationLapse = 'credential' | 'client' | 'person' | 'provider'

/**
 * The rule for a delegation kept elsewhere than its DelegatedAccessToken row (a held call's): the
 * credential and the provider are checked when given (token exchange), the OAuth client when given
 * (a person who consented here).
 */
export async function delegationLapse(parts: {
  agentId: string
  credentialId: string | null
  oauthClientId: string | null
  userId: string | null
  issuer: string | null
}): Promise<DelegationLapse | null> {
  const standing = delegationStanding(DELEGATION_REFS)
  const { rows } = await sql<{ credentialUsable: boolean; clientUsable: boolean; personUsable: boolean; providerTrusted: boolean }>`
    SELECT ${standing.credentialUsable} AS "credentialUsable", ${oauthClientStanding('o', 'd.agentId')} AS "clientUsable",
        ${standing.personUsable} AS "personUsable", ${standing.providerTrusted} AS "providerTrusted"
      FROM (VALUES (${parts.agentId}::text, ${parts.credentialId}::uuid, ${parts.oauthClientId}::text, ${parts.userId}::text, ${parts.issuer}::text))
        AS d("agentId", "credentialId", "clientId", "userId", issuer)
      LEFT JOIN "AgentCredential" c ON c.id = d."credentialId"
      LEFT JOIN "OauthClient" o ON o."clientId" = d."clientId"
      LEFT JOIN "User" u ON u.id = d."userId"`.execute(db)
  const row = rows[0]
  if (parts.credentialId !== null && !row.credentialUsable) return 'credential'
  if (parts.oauthClientId !== null && !row.clientUsable) return 'client'
  if (!row.personUsable) return 'person'
  if (parts.issuer !== null && !row.providerTrusted) return 'provider'
  return null
}
