// Which agent an OAuth access token (`tro_…`) speaks for at `/mcp`: the Agent its client is bound to,
// if the token is unexpired, unrevoked, carries the `mcp` scope and was issued for this very resource
// (its audience, RFC 8707), and its client is enabled. A token a person consented to acts for that
// person, and stops working the moment their account is disabled or removed. Anything else is no
// identity at all. Tokens issued by token exchange (same prefix) are looked up by
// lib/oauth/identify-person-token.ts when this finds none.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { prisma } from '@/lib/db'
import { consentingPerson } from '@/lib/identity/person'
import { hashOAuthToken } from './oauth-secrets'
import { MCP_SCOPE, OAUTH_PREFIXES } from './oauth-settings'

export interface OAuthTokenIdentity {
  identity: AgentIdentity | null
  /** When the token stops working (for caching no longer than that). */
  expiresAt: Date | null
  /** Whether the token is one better-auth issued at all (false: look elsewhere). */
  found: boolean
}

export async function identifyOAuthAccessToken(token: string, resource: string): Promise<OAuthTokenIdentity> {
  if (!token.startsWith(OAUTH_PREFIXES.opaqueAccessToken)) return { identity: null, expiresAt: null, found: false }
  const hash = hashOAuthToken(token.slice(OAUTH_PREFIXES.opaqueAccessToken.length))
  const rows = await prisma.$queryRaw<
    Array<{
      clientId: string
      expiresAt: Date | null
      revoked: Date | null
      resources: string[] | null
      scopes: string[]
      disabled: boolean | null
      agentId: string | null
      name: string | null
      namespace: string | null
      userId: string | null
      userName: string | null
      userEmail: string | null
      userDisabled: boolean | null
    }>
  >`
    SELECT t."clientId", t."expiresAt", t.revoked, t.resources, t.scopes, c.disabled, a.id::text AS "agentId", a.name, a.namespace,
           t."userId", u.name AS "userName", u.email AS "userEmail", u."disabledAt" IS NOT NULL AS "userDisabled"
    FROM "OauthAccessToken" t
    JOIN "OauthClient" c ON c."clientId" = t."clientId"
    LEFT JOIN "Agent" a ON a.id::text = c."referenceId"
    LEFT JOIN "User" u ON u.id = t."userId"
    WHERE t.token = ${hash}`
  const row = rows[0]
  if (!row) return { identity: null, expiresAt: null, found: false }
  const valid =
    !row.revoked &&
    row.expiresAt !== null &&
    row.expiresAt.getTime() > Date.now() &&
    !row.disabled &&
    row.scopes.includes(MCP_SCOPE) &&
    (row.resources ?? []).includes(resource) &&
    row.agentId !== null &&
    // A person's consent speaks for them only while their account is there and enabled.
    (row.userId === null || (row.userName !== null && !row.userDisabled))
  if (!valid) return { identity: null, expiresAt: row.expiresAt, found: true }
  const person = row.userId ? consentingPerson({ id: row.userId, name: row.userName!, email: row.userEmail }, resource) : null
  return {
    identity: { kind: 'agent', agentId: row.agentId!, name: row.name!, namespace: row.namespace!, credentialId: `oauth:${row.clientId}`, person },
    expiresAt: row.expiresAt,
    found: true,
  }
}
