// Serialized answers about an agent's or unit's effective tools, kept until the registry changes.
// Bodies are Buffers (outside the JS heap), bounded in total bytes, least recently used out first.
import 'server-only'
import { config } from '@/lib/config'
import { countCacheLookup } from '@/lib/observability/metrics'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { defaultAnswerCacheMb, processMemoryLimitBytes } from './answer-cache-size'

const maxBytes = () => (config().TOOLROOM_ANSWER_CACHE_MB ?? defaultAnswerCacheMb(processMemoryLimitBytes())) * 1024 * 1024

interface Entry {
  epoch: number
  /** What else the body depends on (the call statistics version). */
  variant: string
  body: Buffer
}

const cache: { entries: Map<string, Entry>; bytes: number } = ((
  globalThis as { __toolroomAnswerCache?: { entries: Map<string, Entry>; bytes: number } }
).__toolroomAnswerCache ??= {
  entries: new Map(),
  bytes: 0,
})

function drop(key: string, entry: Entry) {
  cache.entries.delete(key)
  cache.bytes -= entry.body.byteLength
}

/** The cached body for `key` (valid for this registry epoch and `variant`), or computes, caches and returns it. */
export async function cachedBody(key: string, compute: () => Promise<unknown>, variant = ''): Promise<Buffer> {
  const epoch = registryEpoch()
  const hit = cache.entries.get(key)
  const fresh = hit !== undefined && epoch !== null && hit.epoch === epoch && hit.variant === variant
  countCacheLookup('effective_tools_answer', fresh)
  if (hit && fresh) {
    cache.entries.delete(key) // re-insert: Map order is recency order
    cache.entries.set(key, hit)
    return hit.body
  }
  if (hit) drop(key, hit)
  const body = Buffer.from(JSON.stringify(await compute()))
  // Computed from reads that began at `epoch`: valid only if nothing changed since.
  if (epoch !== null && registryEpoch() === epoch && body.byteLength <= maxBytes()) {
    cache.entries.set(key, { epoch, variant, body })
    cache.bytes += body.byteLength
    for (const [oldest, entry] of cache.entries) {
      if (cache.bytes <= maxBytes()) break
      drop(oldest, entry)
    }
  }
  return body
}
