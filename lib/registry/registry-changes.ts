// Knows when the registry changed, in any process: a trigger on every registry table NOTIFYs
// `toolroom_registry` after each committed write (see the init migration), and this process LISTENs.
// Caches of derived data tag entries with the epoch they were computed in and drop them when it moves;
// watchers (the gateway's tool-list notifications) are called each time it moves, with the change's
// scope: the agents and units it touched, or everyone. Agent and Unit rows say which ones in the
// NOTIFY's payload (migration 20261127174000_scoped_registry_changes); every other table, a lost
// connection and a payload this code does not understand mean everyone: correctness first.
// Design: docs/design/effective-tools.md#caching.
import 'server-only'
import pg from 'pg'
import { config } from '@/lib/config'

const CHANNEL = 'toolroom_registry'

/**
 * What a change may have touched: everyone, or only the answers that depend on one of `subjects`
 * (`Agent:<id>`, `Unit:<namespace>/<name>`, see subjectsOf in lib/effective-tools/answer-dependencies.ts).
 */
export type ChangeScope = { everyone: true } | { everyone: false; subjects: ReadonlySet<string> }

export const EVERYONE: ChangeScope = { everyone: true }

/** A scope limited to `subjects`. */
export function changeOf(subjects: Iterable<string>): ChangeScope {
  return { everyone: false, subjects: new Set(subjects) }
}

/** Whether a change of `scope` may have touched an answer depending on `dependsOn` (null: unknown, so yes). */
export function touches(scope: ChangeScope, dependsOn: ReadonlySet<string> | null): boolean {
  if (scope.everyone || dependsOn === null) return true
  for (const subject of scope.subjects) if (dependsOn.has(subject)) return true
  return false
}

/** The union of two scopes. */
export function joinScopes(a: ChangeScope | null, b: ChangeScope): ChangeScope {
  if (a === null) return b
  if (a.everyone || b.everyone) return EVERYONE
  return changeOf([...a.subjects, ...b.subjects])
}

const SUBJECT = /^(Agent:[0-9a-f-]{36}|Unit:[^/\s]+\/[^/\s]+)$/

/** The scope a NOTIFY payload names; anything but a JSON array of well-formed subjects is everyone. */
export function scopeOfPayload(payload: string | undefined): ChangeScope {
  if (!payload?.startsWith('[')) return EVERYONE
  try {
    const subjects: unknown = JSON.parse(payload)
    if (!Array.isArray(subjects) || subjects.length === 0) return EVERYONE
    if (!subjects.every((s) => typeof s === 'string' && SUBJECT.test(s))) return EVERYONE
    return changeOf(subjects as string[])
  } catch {
    return EVERYONE
  }
}

type Listener = (scope: ChangeScope) => void

interface State {
  epoch: number
  live: boolean
  client: pg.Client | null
  connecting: Promise<void> | null
  retryMs: number
  listeners: Set<Listener>
}

// One listener per process, even though Next bundles route modules separately.
const state: State = ((globalThis as { __toolroomRegistryChanges?: State }).__toolroomRegistryChanges ??= {
  epoch: 0,
  live: false,
  client: null,
  connecting: null,
  retryMs: 250,
  listeners: new Set(),
})
// A process that ran an older copy of this module (Next.js dev reloads) kept a state without listeners.
state.listeners ??= new Set()

/**
 * The current epoch, or null while this process is not listening (then nothing derived may be
 * served from a cache, since changes could go unnoticed).
 */
export function registryEpoch(): number | null {
  if (!state.live) {
    void listen()
    return null
  }
  return state.epoch
}

/**
 * Called after this process committed a write, so it reads its own writes before the NOTIFY arrives.
 * `scope`: what the write touched, when the writer knows it (the NOTIFY will say it too).
 */
export function noteRegistryChange(scope: ChangeScope = EVERYONE): void {
  moved(scope)
}

/**
 * Calls `listener` after every change of the registry, in any process (and when the listener
 * reconnects, since changes may have been missed meanwhile). Starts listening if this process was not.
 */
export function onRegistryChange(listener: Listener): () => void {
  state.listeners.add(listener)
  void listen()
  return () => state.listeners.delete(listener)
}

/**
 * For tests only (tests/integration/setup.ts): ends this process's listener without the reconnect a
 * lost connection gets, so integration files that share a process leave none on their database.
 */
export async function stopListeningForTests(): Promise<void> {
  await state.connecting
  const client = state.client
  state.client = null
  state.live = false
  client?.removeAllListeners()
  await client?.end().catch(() => {})
}

function moved(scope: ChangeScope) {
  state.epoch++
  for (const listener of state.listeners) {
    try {
      listener(scope)
    } catch {
      // a watcher's failure is its own
    }
  }
}

function listen(): Promise<void> {
  if (state.connecting || state.live) return state.connecting ?? Promise.resolve()
  state.connecting = (async () => {
    const client = new pg.Client({ connectionString: config().DATABASE_URL })
    const lost = () => {
      if (state.client !== client) return
      state.live = false
      state.client = null
      moved(EVERYONE)
      client.removeAllListeners()
      client.end().catch(() => {})
      setTimeout(() => void listen(), state.retryMs).unref()
      state.retryMs = Math.min(state.retryMs * 2, 10_000)
    }
    try {
      client.on('notification', (message) => moved(scopeOfPayload(message.payload)))
      client.on('error', lost)
      client.on('end', lost)
      state.client = client
      await client.connect()
      await client.query(`LISTEN ${CHANNEL}`)
      // Anything cached before the listener was up may have missed a change.
      state.live = true
      moved(EVERYONE)
      state.retryMs = 250
    } catch {
      lost()
    } finally {
      state.connecting = null
    }
  })()
  return state.connecting
}
