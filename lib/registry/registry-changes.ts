// Knows when the registry changed, in any process: a trigger on every registry table NOTIFYs
// `toolroom_registry` after each committed write (see the init migration), and this process LISTENs.
// Caches of derived data tag entries with the epoch they were computed in and drop them when it moves;
// watchers (the gateway's tool-list notifications) are called each time it moves.
import 'server-only'
import pg from 'pg'
import { config } from '@/lib/config'

const CHANNEL = 'toolroom_registry'

interface State {
  epoch: number
  live: boolean
  client: pg.Client | null
  connecting: Promise<void> | null
  retryMs: number
  listeners: Set<() => void>
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

/** Called after this process committed a write, so it reads its own writes before the NOTIFY arrives. */
export function noteRegistryChange(): void {
  moved()
}

/**
 * Calls `listener` after every change of the registry, in any process (and when the listener
 * reconnects, since changes may have been missed meanwhile). Starts listening if this process was not.
 */
export function onRegistryChange(listener: () => void): () => void {
  state.listeners.add(listener)
  void listen()
  return () => state.listeners.delete(listener)
}

function moved() {
  state.epoch++
  for (const listener of state.listeners) {
    try {
      listener()
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
      moved()
      client.removeAllListeners()
      client.end().catch(() => {})
      setTimeout(() => void listen(), state.retryMs).unref()
      state.retryMs = Math.min(state.retryMs * 2, 10_000)
    }
    try {
      client.on('notification', moved)
      client.on('error', lost)
      client.on('end', lost)
      state.client = client
      await client.connect()
      await client.query(`LISTEN ${CHANNEL}`)
      // Anything cached before the listener was up may have missed a change.
      state.live = true
      moved()
      state.retryMs = 250
    } catch {
      lost()
    } finally {
      state.connecting = null
    }
  })()
  return state.connecting
}
