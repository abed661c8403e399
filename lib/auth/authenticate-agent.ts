// Who is calling the gateway: an agent, identified by its bearer credential (`tra_…`). Answers are
// kept in memory for a few seconds so a busy agent does not cost a database round trip per call;
// revocation and expiry are therefore honoured within TOOLROOM_AGENT_AUTH_CACHE_MS (default 3 s).
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { db } from '@/lib/sql'
import { identifyPersonToken } from '@/lib/oauth/identify-person-token'
import { identifyOAuthAccessToken } from '@/lib/oauth/identify-oauth-token'
import { countCacheLookup } from '@/lib/observability/metrics'
import type { AgentIdentity } from './agent-identity'
import { bearerToken, hashToken } from './secret-token'

export type { AgentIdentity } from './agent-identity'

interface CacheEntry {
  identity: AgentIdentity | null
  until: number
}

const MAX_ENTRIES = 10_000
// lastUsedAt is a hint for people, not an audit trail: written at most once a minute per credential.
const TOUCH_EVERY_MS = 60_000

const state = ((globalThis as { __toolroomAgentAuth?: { cache: Map<string, CacheEntry>; touched: Map<string, number> } }).__toolroomAgentAuth ??= {
  cache: new Map(),
  touched: new Map(),
})

/** The agent a request speaks for, or null when it carries no valid, unrevoked, unexpired credential. */
export async function authenticateAgent(request: Request): Promise<AgentIdentity | null> {
  const token = bearerToken(request)
  if (!token || !token.startsWith('tra_')) return null
  return identifyAgentToken(token)
}

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
  const hit = state.cache.get(key)
  if (hit && hit.until > now) return hit.identity
  // A `tro_…` token is better-auth's (a client's, maybe with a person's consent) or token exchange's.
  const consented = await identifyOAuthAccessToken(token, resource)
  const { identity, expiresAt } = consented.found ? consented : await identifyPersonToken(token, resource)
  if (state.cache.size >= MAX_ENTRIES) state.cache.delete(state.cache.keys().next().value!)
  state.cache.set(key, { identity, until: Math.min(now + config().TOOLROOM_AGENT_AUTH_CACHE_MS, expiresAt?.getTime() ?? Infinity) })
  return identity
}

export async function identifyAgentToken(token: string): Promise<AgentIdentity | null> {
  const now = Date.now()
  // Keyed by the token itself (this process's memory only), so a hit costs no hashing.
  const hit = state.cache.get(token)
  countCacheLookup('agent_credential', hit !== undefined && hit.until > now)
  if (hit && hit.until > now) return hit.identity
  const hash = hashToken(token)

  const row = await db
    .selectFrom('AgentCredential as c')
    .innerJoin('Agent as a', 'a.id', 'c.agentId')
    .select(['c.id', 'c.agentId', 'a.name', 'a.namespace', 'c.expiresAt', 'c.revokedAt'])
    .where('c.hash', '=', hash)
    .executeTakeFirst()
  const valid = row && !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now)
  const identity: AgentIdentity | null = valid
    ? { kind: 'agent', agentId: row.agentId, name: row.name, namespace: row.namespace, credentialId: row.id, person: null }
    : null
  // An expiring credential is never cached past its expiry.
  const until = Math.min(now + config().TOOLROOM_AGENT_AUTH_CACHE_MS, row?.expiresAt?.getTime() ?? Infinity)
  if (state.cache.size >= MAX_ENTRIES) state.cache.delete(state.cache.keys().next().value!)
  state.cache.set(token, { identity, until })
  if (identity) touch(identity.credentialId, now)
  return identity
}

function touch(credentialId: string, now: number) {
  if ((state.touched.get(credentialId) ?? 0) > now - TOUCH_EVERY_MS) return
  state.touched.set(credentialId, now)
  prisma.agentCredential.update({ where: { id: credentialId }, data: { lastUsedAt: new Date(now) } }).catch(() => {})
}

/** Forget cached answers (after a revocation, or a person disabled, in this process, so it takes effect here at once). */
export function forgetAgentCredentials(): void {
  state.cache.clear()
}
