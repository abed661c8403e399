// One change feed for everyone who watches something derived from the registry: agents connected to
// /mcp (tools/list_changed) and REST watchers of an effective set or config.yaml (`?watch=1`). The
// registry's NOTIFY (registry-changes.ts) says what a change touched (some agents and units, or
// everyone); after each change the fingerprint of every watched subject it may have touched is worked
// out again, once per subject however many watch it, and only the watchers of subjects whose
// fingerprint moved are called. A subject that does not say what it depends on is looked at after
// every change. Design: docs/design/resource-model.md#watch, docs/design/effective-tools.md#caching.
import 'server-only'
import { type ChangeScope, joinScopes, onRegistryChange, touches } from './registry-changes'

/** Changes arriving together (an Apply of many documents) are looked at once. */
const SETTLE_MS = 50

/**
 * What a look at a subject sees: its fingerprint, and the subjects (registry-changes.ts) it depends on,
 * read together; `dependsOn` null when unknown (every change may touch it).
 */
export interface Seen {
  fingerprint: string
  dependsOn: ReadonlySet<string> | null
}

interface Watch {
  look: () => Promise<Seen>
  /** Each called with the new fingerprint. */
  listeners: Set<(fingerprint: string) => void>
  /** The last fingerprint seen; null until the first one is known. */
  last: string | null
  /** What the last fingerprint depended on; null while unknown. */
  dependsOn: ReadonlySet<string> | null
}

interface State {
  watches: Map<string, Watch>
  stopListening: (() => void) | null
  timer: ReturnType<typeof setTimeout> | null
  running: Promise<void> | null
  again: boolean
  /** What the changes not looked at yet touched. */
  pending: ChangeScope | null
}

const state: State = ((globalThis as { __toolroomChangeFeed?: State }).__toolroomChangeFeed ??= {
  watches: new Map(),
  stopListening: null,
  timer: null,
  running: null,
  again: false,
  pending: null,
})

/**
 * Calls `listener` with the new fingerprint whenever the fingerprint `look()` sees of the subject
 * named `key` moves after a registry change, in any process, until the returned function is called.
 * What the look says the subject depends on lets changes elsewhere skip it. Watchers of one key share
 * one look function (the first one given): a key names exactly one derived answer.
 */
export function watchSubject(key: string, look: () => Promise<Seen>, listener: (fingerprint: string) => void): () => void {
  state.stopListening ??= onRegistryChange(changed)
  let watch = state.watches.get(key)
  if (!watch) {
    const created: Watch = { look, listeners: new Set(), last: null, dependsOn: null }
    state.watches.set(key, created)
    void lookAt(created).then(
      (seen) => {
        if (!seen || created.last !== null) return
        created.last = seen.fingerprint
        created.dependsOn = seen.dependsOn
      },
      () => {},
    )
    watch = created
  }
  watch.listeners.add(listener)
  const current = watch
  return () => {
    current.listeners.delete(listener)
    if (current.listeners.size === 0 && state.watches.get(key) === current) state.watches.delete(key)
    if (state.watches.size === 0 && state.stopListening) {
      state.stopListening()
      state.stopListening = null
    }
  }
}

/** How many subjects and watchers this process follows (a bound on both is the caller's). */
export function watchedCounts(): { subjects: number; watchers: number } {
  let watchers = 0
  for (const watch of state.watches.values()) watchers += watch.listeners.size
  return { subjects: state.watches.size, watchers }
}

/** The subject's fingerprint and what it depends on; null if the look failed. */
const lookAt = (watch: Watch): Promise<Seen | null> => watch.look().catch(() => null)

function changed(scope: ChangeScope) {
  // `?? null`: a state kept from an older copy of this module (Next.js dev reloads) lacks the field.
  state.pending = joinScopes(state.pending ?? null, scope)
  if (state.timer) return
  state.timer = setTimeout(() => {
    state.timer = null
    if (state.running) {
      state.again = true
      return
    }
    const scope = state.pending
    state.pending = null
    if (!scope) return
    state.running = compareAll(scope).finally(() => {
      state.running = null
      if (state.again) {
        state.again = false
        if (state.pending) changed(state.pending)
      }
    })
  }, SETTLE_MS)
  state.timer.unref?.()
}

/**
 * Subjects looked at together after a change: each look waits on the database (the subject's row,
 * what it depends on) as much as it computes, and concurrent looks share their reads in batches.
 * bench:fleet-recompute runs at this concurrency; its sweep (BENCHMARKS.md) found 8–16 at a time
 * cheapest: 4 left the batches small, 64 cost a third more CPU.
 */
export const LOOKS_AT_ONCE = 8

async function compareAll(scope: ChangeScope) {
  // Before its first look a subject's dependencies are unknown: it is looked at.
  const touched = [...state.watches.values()].filter((watch) => touches(scope, watch.dependsOn ?? null))
  let next = 0
  const lookAtNext = async () => {
    while (next < touched.length) await compare(touched[next++])
  }
  await Promise.all(Array.from({ length: Math.min(LOOKS_AT_ONCE, touched.length) }, lookAtNext))
}

async function compare(watch: Watch) {
  const seen = await lookAt(watch)
  if (seen === null) return
  const { fingerprint } = seen
  const before = watch.last
  watch.last = fingerprint
  watch.dependsOn = seen.dependsOn
  if (before === null || before === fingerprint) return
  for (const listener of [...watch.listeners]) {
    try {
      listener(fingerprint)
    } catch {
      // one watcher's failure is its own
    }
  }
}
