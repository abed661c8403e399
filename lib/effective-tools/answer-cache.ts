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

/** A cached answer. */
export interface Answer {
  body: Buffer
  /** The subjects whose change drops it (answer-dependencies.ts). */
  dependsOn: ReadonlySet<string>
  /** The fingerprint a watch versions the body by, when it was computed with the body (watch-effective-set.ts). */
  fingerprint?: string
}

interface Entry extends Answer {
  /** What else the body depends on (the call statistics version). */
  variant: string
}

interface Computing {
  epoch: number
  variant: string
  fingerprinted: boolean
  answer: Promise<Answer>
}

interface Cache {
  entries: Map<string, Entry>
  bytes: number
  /** Computations under way, by key: a second ask of the same epoch and variant waits for the first's. */
  computing: Map<string, Computing>
  stopListening: (() => void) | null
}

const cache: Cache = ((globalThis as { __toolroomAnswerCache?: Cache }).__toolroomAnswerCache ??= {
  entries: new Map(),
  bytes: 0,
  computing: new Map(),
  stopListening: null,
})
// A cache kept from an older copy of this module (Next.js dev reloads) lacks the field.
cache.computing ??= new Map()

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
export type Computed = ({ value: unknown } | { body: Buffer }) & { dependsOn: ReadonlySet<string>; fingerprint?: string }

/**
 * The cached answer for `key` (valid for `variant`), or computes, caches and returns it: its body,
 * what it depends on and the fingerprint it was computed with, if it was.
 * `fingerprinted`: only an answer computed with its fingerprint will do (a watch's: the fingerprint
 * must be of the body's own reads), and `compute` gives one.
 */
export async function cachedAnswer(key: string, compute: () => Promise<Computed>, variant = '', fingerprinted = false): Promise<Answer> {
  cache.stopListening ??= onRegistryChange(invalidate)
  const epoch = registryEpoch()
  const hit = cache.entries.get(key)
  // While the listener is down a change could go unnoticed: nothing is served from the cache then
  // (and everything is dropped once it is back up).
  const fresh = hit !== undefined && epoch !== null && hit.variant === variant && (!fingerprinted || hit.fingerprint !== undefined)
  countCacheLookup('effective_tools_answer', fresh)
  if (hit && fresh) {
    cache.entries.delete(key) // re-insert: Map order is recency order
    cache.entries.set(key, hit)
    return hit
  }
  if (hit) drop(key, hit)
  // The same answer asked again while it is computed (a watch's first look and its first event, a
  // GET beside a watch) shares the computation: only one that began at this epoch, whose reads
  // began after every change this ask could have to see.
  const under = cache.computing.get(key)
  if (under && epoch !== null && under.epoch === epoch && under.variant === variant && (under.fingerprinted || !fingerprinted)) return under.answer
  const answer = computeAndKeep(key, compute, variant, epoch)
  if (epoch !== null) {
    const computing = { epoch, variant, fingerprinted, answer }
    cache.computing.set(key, computing)
    const done = () => {
      if (cache.computing.get(key) === computing) cache.computing.delete(key)
    }
    answer.then(done, done)
  }
  return answer
}

async function computeAndKeep(key: string, compute: () => Promise<Computed>, variant: string, epoch: number | null): Promise<Answer> {
  const computed = await compute()
  const { dependsOn, fingerprint } = computed
  const body = 'body' in computed ? computed.body : Buffer.from(JSON.stringify(computed.value))
  const answer: Answer = fingerprint === undefined ? { body, dependsOn } : { body, dependsOn, fingerprint }
  // Computed from reads that began at `epoch`: a change since (whatever it touched) may have come
  // too late for the invalidation above and too early for the reads, so the body is not kept.
  if (epoch !== null && registryEpoch() === epoch && body.byteLength <= maxBytes()) {
    const replaced = cache.entries.get(key)
    if (replaced) drop(key, replaced)
    cache.entries.set(key, { ...answer, variant })
    cache.bytes += body.byteLength
    for (const [oldest, entry] of cache.entries) {
      if (cache.bytes <= maxBytes()) break
      drop(oldest, entry)
    }
  }
  return answer
}
