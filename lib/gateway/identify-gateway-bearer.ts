// Who a bearer token at `/mcp` is: every kind of credential an agent can present to the gateway,
// tried in turn. Above both lib/auth (agent credentials) and lib/oauth (the tokens its authorization
// server and token exchange issue), which know one kind each.
import 'server-only'
import type { AgentIdentity } from '@/lib/auth/agent-identity'
import { cachedAgentIdentity, rememberAgentIdentity } from '@/lib/auth/agent-identity-cache'
import { identifyAgentToken } from '@/lib/auth/authenticate-agent'
import { identifyPersonToken } from '@/lib/oauth/identify-person-token'
import { identifyOAuthAccessToken } from '@/lib/oauth/identify-oauth-token'

/**
 * The agent a bearer token at `/mcp` speaks for, and the person it acts for: an agent credential
 * (`tra_…`, nobody), or an OAuth access token (`tro_…`) issued for `resource` (this gateway's
 * `<origin>/mcp`) to a client bound to the agent (the person who consented, if any) or by token
 * exchange (the person of the subject token).
 */
export async function identifyGatewayBearer(token: string, resource: string): Promise<AgentIdentity | null> {
  if (token.startsWith('tra_')) return identifyAgentToken(token)
  const now = Date.now()
  const key = `${token}\n${resource}`
  const hit = cachedAgentIdentity(key, now)
  if (hit) return hit.identity
  // A `tro_…` token is better-auth's (a client's, maybe with a person's consent) or token exchange's.
  const consented = await identifyOAuthAccessToken(token, resource)
  const { identity, expiresAt } = consented.found ? consented : await identifyPersonToken(token, resource)
  rememberAgentIdentity(key, identity, expiresAt, now)
  return identity
}
