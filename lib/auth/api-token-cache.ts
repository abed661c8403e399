// API tokens authenticate every REST request, and their lookup (a query with its owner) cost more
// CPU than a cached effective-tools answer (BENCHMARKS.md). Verdicts are kept per process for
// TOOLROOM_API_TOKEN_CACHE_MS (default 2 s): this process forgets them at once when it revokes a
// token or changes a person; other web processes notice within that time. Never past a token's expiry.
import 'server-only'
import { config } from '@/lib/config'
import { countCacheLookup } from '@/lib/observability/metrics'
import type { Actor } from './access-rules'

const MAX_ENTRIES = 10_000

interface Entry {
  actor: Actor
  until: number
}

const cache: Map<string, Entry> = ((globalThis as { __toolroomApiTokenAuth?: Map<string, Entry> }).__toolroomApiTokenAuth ??= new Map())

/** The actor of a token hash seen within the cache time, or undefined. */
export function cachedTokenActor(hash: string, now = Date.now()): Actor | undefined {
  const hit = cache.get(hash)
  countCacheLookup('api_token', hit !== undefined && hit.until > now)
  if (!hit) return undefined
  if (hit.until > now) return hit.actor
  cache.delete(hash)
  return undefined
}

/** Remembers an authenticated token (failed lookups are not kept: a new token must work at once). */
export function rememberTokenActor(hash: string, actor: Actor, expiresAt: Date | null, now = Date.now()): void {
  const cacheMs = config().TOOLROOM_API_TOKEN_CACHE_MS
  if (cacheMs <= 0) return
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(hash, { actor, until: Math.min(now + cacheMs, expiresAt?.getTime() ?? Infinity) })
}

/** After a revocation or a change to a person (role, disabled): nothing cached may outlive it here. */
export function forgetTokenActors(): void {
  cache.clear()
}
