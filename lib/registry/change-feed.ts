// One change feed for everyone who watches something derived from the registry: agents connected to
// /mcp (tools/list_changed) and REST watchers of an effective set or config.yaml (`?watch=1`). The
// registry's NOTIFY (registry-changes.ts) says only that something changed; after each change the
// fingerprint of every watched subject is worked out again, once per subject however many watch it,
// and only the watchers of subjects whose fingerprint moved are called. Design:
// docs/design/resource-model.md#watch.
import 'server-only'
import { onRegistryChange } from './registry-changes'

/** Changes arriving together (an Apply of many documents) are looked at once. */
const SETTLE_MS = 50

interface Watch {
  fingerprint: () => Promise<string>
  listeners: Set<() => void>
  /** The last fingerprint seen; null until the first one is known. */
  last: string | null
}

interface State {
  watches: Map<string, Watch>
  stopListening: (() => void) | null
  timer: ReturnType<typeof setTimeout> | null
  running: Promise<void> | null
  again: boolean
}

const state: State = ((globalThis as { __toolroomChangeFeed?: State }).__toolroomChangeFeed ??= {
  watches: new Map(),
  stopListening: null,
  timer: null,
  running: null,
  again: false,
})

/**
 * Calls `listener` whenever `fingerprint()` of the subject named `key` moves after a registry change,
 * in any process, until the returned function is called. Watchers of one key share one fingerprint
 * function (the first one given): a key names exactly one derived answer.
 */
export function watchSubject(key: string, fingerprint: () => Promise<string>, listener: () => void): () => void {
  state.stopListening ??= onRegistryChange(changed)
  let watch = state.watches.get(key)
  if (!watch) {
    const created: Watch = { fingerprint, listeners: new Set(), last: null }
    state.watches.set(key, created)
    void fingerprint().then(
      (f) => (created.last ??= f),
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

function changed() {
  if (state.timer) return
  state.timer = setTimeout(() => {
    state.timer = null
    if (state.running) {
      state.again = true
      return
    }
    state.running = compareAll().finally(() => {
      state.running = null
      if (state.again) {
        state.again = false
        changed()
      }
    })
  }, SETTLE_MS)
  state.timer.unref?.()
}

async function compareAll() {
  for (const [, watch] of [...state.watches]) {
    const fingerprint = await watch.fingerprint().catch(() => null)
    if (fingerprint === null) continue
    const before = watch.last
    watch.last = fingerprint
    if (before === null || before === fingerprint) continue
    for (const listener of [...watch.listeners]) {
      try {
        listener()
      } catch {
        // one watcher's failure is its own
      }
    }
  }
}
