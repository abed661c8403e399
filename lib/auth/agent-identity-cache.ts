// Who a gateway bearer credential is, kept in memory for a few seconds so a busy agent does not cost a
// database round trip per call: agent credentials (`tra_…`, lib/auth/authenticate-agent.ts) and OAuth
// access tokens for a resource (`tro_…`, lib/gateway/identify-gateway-bearer.ts) in one map, so that
// forgetting them after a revocation, or a person disabled, clears every kind at once. Revocation and
// expiry are therefore honoured within TOOLROOM_AGENT_AUTH_CACHE_MS (default 3 s) in other processes.
import 'server-only'
import { config } from '@/lib/config'
import type { AgentIdentity } from './agent-identity'

interface CacheEntry {
  identity: AgentIdentity | null
  until: number
}

const MAX_ENTRIES = 10_000

const cache: Map<string, CacheEntry> = ((globalThis as { __toolroomAgentIdentityCache?: Map<string, CacheEntry> }).__toolroomAgentIdentityCache ??= new Map())

/** The answer kept for `key` while it is fresh (null: known to be no valid credential), or undefined. */
export function cachedAgentIdentity(key: string, now: number): { identity: AgentIdentity | null } | undefined {
  const hit = cache.get(key)
  return hit && hit.until > now ? { identity: hit.identity } : undefined
}

/** Keeps an answer, valid or not, for the cache time: never past the credential's expiry. */
export function rememberAgentIdentity(key: string, identity: AgentIdentity | null, expiresAt: Date | null | undefined, now: number): void {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(key, { identity, until: Math.min(now + config().TOOLROOM_AGENT_AUTH_CACHE_MS, expiresAt?.getTime() ?? Infinity) })
}

/** Forget cached answers (after a revocation, or a person disabled, in this process, so it takes effect here at once). */
export function forgetAgentCredentials(): void {
  cache.clear()
}
