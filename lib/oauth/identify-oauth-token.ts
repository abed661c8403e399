// Which agent an OAuth access token (`tro_…`) speaks for at `/mcp`: the Agent its client is bound to,
// if the token is unexpired, unrevoked, carries the `mcp` scope and was issued for this very resource
// (its audience, RFC 8707), and its client is enabled. Anything else is no identity at all.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { prisma } from '@/lib/db'
import { hashOAuthToken } from './oauth-secrets'
import { MCP_SCOPE, OAUTH_PREFIXES } from './oauth-settings'

export interface OAuthTokenIdentity {
  identity: AgentIdentity | null
  /** When the token stops working (for caching no longer than that). */
  expiresAt: Date | null
}

export async function identifyOAuthAccessToken(token: string, resource: string): Promise<OAuthTokenIdentity> {
  if (!token.startsWith(OAUTH_PREFIXES.opaqueAccessToken)) return { identity: null, expiresAt: null }
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
    }>
  >`
    SELECT t."clientId", t."expiresAt", t.revoked, t.resources, t.scopes, c.disabled, a.id::text AS "agentId", a.name, a.namespace
    FROM "OauthAccessToken" t
    JOIN "OauthClient" c ON c."clientId" = t."clientId"
    LEFT JOIN "Agent" a ON a.id::text = c."referenceId"
    WHERE t.token = ${hash}`
  const row = rows[0]
  if (!row) return { identity: null, expiresAt: null }
  const valid =
    !row.revoked &&
    row.expiresAt !== null &&
    row.expiresAt.getTime() > Date.now() &&
    !row.disabled &&
    row.scopes.includes(MCP_SCOPE) &&
    (row.resources ?? []).includes(resource) &&
    row.agentId !== null
  if (!valid) return { identity: null, expiresAt: row.expiresAt }
  return {
    identity: { kind: 'agent', agentId: row.agentId!, name: row.name!, namespace: row.namespace!, credentialId: `oauth:${row.clientId}` },
    expiresAt: row.expiresAt,
  }
}
