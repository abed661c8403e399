// Serialized answers about an agent's or unit's effective tools, kept until a registry change touches
// what they depend on (the agent, a unit of its chain, or everyone: lib/registry/registry-changes.ts),
// in whichever process it was made. Bodies are Buffers (outside the JS heap), bounded in total bytes,
// least recently used out first. Design: docs/design/effective-tools.md#caching.
import 'server-only'
import { config } from '@/lib/config'
import { countCacheLookup } from '@/lib/observability/metrics'
import { type ChangeScope, onRegistryChange, registryEpoch, touches } from '@/lib/registry/registry-changes'
import { defaultAnswerCacheMb, processMemoryLimitBytes } from './answer-cache-size'

const maxBytes = () => (config().TOOLROOM_ANSWER_CACHE_MB ?? defaultAnswerCacheMb(processMemoryLimitBytes())) * 1024 * 1024

interface Entry {
  /** What else the body depends on (the call statistics version). */
  variant: string
  /** The subjects whose change drops it (answer-dependencies.ts). */
  dependsOn: ReadonlySet<string>
  body: Buffer
}

interface Cache {
  entries: Map<string, Entry>
  bytes: number
  stopListening: (() => void) | null
}

const cache: Cache = ((globalThis as { __toolroomAnswerCache?: Cache }).__toolroomAnswerCache ??= {
  entries: new Map(),
  bytes: 0,
  stopListening: null,
})

function drop(key: string, entry: Entry) {
  cache.entries.delete(key)
  cache.bytes -= entry.body.byteLength
}

function invalidate(scope: ChangeScope) {
  if (scope.everyone) {
    cache.entries.clear()
    cache.bytes = 0
    return
  }
  // An entry of an older copy of this module (Next.js dev reloads) says nothing of what it depends on.
  for (const [key, entry] of cache.entries) if (touches(scope, entry.dependsOn ?? null)) drop(key, entry)
}

/** What a computation gives the cache: the answer (as a value to serialize, or serialized), and the subjects it depends on. */
export type Computed = ({ value: unknown } | { body: Buffer }) & { dependsOn: ReadonlySet<string> }

/** The cached body for `key` (valid for `variant`), or computes, caches and returns it. */
export async function cachedBody(key: string, compute: () => Promise<Computed>, variant = ''): Promise<Buffer> {
  cache.stopListening ??= onRegistryChange(invalidate)
  const epoch = registryEpoch()
  const hit = cache.entries.get(key)
  // While the listener is down a change could go unnoticed: nothing is served from the cache then
  // (and everything is dropped once it is back up).
  const fresh = hit !== undefined && epoch !== null && hit.variant === variant
  countCacheLookup('effective_tools_answer', fresh)
  if (hit && fresh) {
    cache.entries.delete(key) // re-insert: Map order is recency order
    cache.entries.set(key, hit)
    return hit.body
  }
  if (hit) drop(key, hit)
  const computed = await compute()
  const { dependsOn } = computed
  const body = 'body' in computed ? computed.body : Buffer.from(JSON.stringify(computed.value))
  // Computed from reads that began at `epoch`: a change since (whatever it touched) may have come
  // too late for the invalidation above and too early for the reads, so the body is not kept.
  if (epoch !== null && registryEpoch() === epoch && body.byteLength <= maxBytes()) {
    const replaced = cache.entries.get(key)
    if (replaced) drop(key, replaced)
    cache.entries.set(key, { variant, dependsOn, body })
    cache.bytes += body.byteLength
    for (const [oldest, entry] of cache.entries) {
      if (cache.bytes <= maxBytes()) break
      drop(oldest, entry)
    }
  }
  return body
}
