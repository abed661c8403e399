// Which agent an OAuth access token (`tro_…`) speaks for at `/mcp`: the Agent its client is bound to,
// if the token is unexpired, unrevoked, carries the `mcp` scope and was issued for this very resource
// (its audience, RFC 8707), and its client is enabled. A token a person consented to acts for that
// person, and stops working the moment their account is disabled or removed. Anything else is no
// identity at all. Tokens issued by token exchange (same prefix) are looked up by
// lib/oauth/identify-person-token.ts when this finds none.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { oauthClientStanding } from '@/lib/identity/delegation-standing'
import { consentingPerson } from '@/lib/identity/person'
import { db } from '@/lib/sql'
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
  const row = await db
    .selectFrom('OauthAccessToken as t')
    .innerJoin('OauthClient as c', 'c.clientId', 't.clientId')
    .leftJoin('Agent as a', (join) => join.on((eb) => eb(eb.cast<string>('a.id', 'text'), '=', eb.ref('c.referenceId'))))
    .leftJoin('User as u', 'u.id', 't.userId')
    .select((eb) => [
      't.clientId',
      't.expiresAt',
      't.revoked',
      't.resources',
      't.scopes',
      // The Agent is joined by the client's referenceId: the client stands for the agent it names.
      oauthClientStanding('c', 'c.referenceId').as('clientUsable'),
      eb.cast<string | null>('a.id', 'text').as('agentId'),
      'a.name',
      'a.namespace',
      't.userId',
      'u.name as userName',
      'u.email as userEmail',
      eb('u.disabledAt', 'is not', null).as('userDisabled'),
    ])
    .where('t.token', '=', hash)
    .executeTakeFirst()
  if (!row) return { identity: null, expiresAt: null, found: false }
  const valid =
    !row.revoked &&
    row.expiresAt !== null &&
    row.expiresAt.getTime() > Date.now() &&
    row.clientUsable &&
    row.scopes.includes(MCP_SCOPE) &&
    (row.resources ?? []).includes(resource) &&
    row.agentId !== null &&
    // A person's consent speaks for them only while their account is there and enabled.
    (row.userId === null || (row.userName !== null && !row.userDisabled))
  if (!valid) return { identity: null, expiresAt: row.expiresAt, found: true }
  const person = row.userId ? consentingPerson({ id: row.userId, name: row.userName!, email: row.userEmail }, resource, row.clientId) : null
  return {
    identity: { kind: 'agent', agentId: row.agentId!, name: row.name!, namespace: row.namespace!, credentialId: `oauth:${row.clientId}`, person },
    expiresAt: row.expiresAt,
    found: true,
  }
}
