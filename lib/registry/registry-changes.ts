// Knows when the registry changed, in any process: a trigger on every registry table NOTIFYs
// `toolroom_registry` after each committed write (see the init migration), and this process LISTENs.
// Caches of derived data tag entries with the epoch they were computed in and drop them when it moves.
import pg from 'pg'

const CHANNEL = 'toolroom_registry'

interface State {
  epoch: number
  live: boolean
  client: pg.Client | null
  connecting: Promise<void> | null
  retryMs: number
}

// One listener per process, even though Next bundles route modules separately.
const state: State = ((globalThis as { __toolroomRegistryChanges?: State }).__toolroomRegistryChanges ??= {
  epoch: 0,
  live: false,
  client: null,
  connecting: null,
  retryMs: 250,
})

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
  state.epoch++
}

function listen(): Promise<void> {
  if (state.connecting || state.live) return state.connecting ?? Promise.resolve()
  state.connecting = (async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    const lost = () => {
      if (state.client !== client) return
      state.live = false
      state.client = null
      state.epoch++
      client.removeAllListeners()
      client.end().catch(() => {})
      setTimeout(() => void listen(), state.retryMs).unref()
      state.retryMs = Math.min(state.retryMs * 2, 10_000)
    }
    try {
      client.on('notification', () => state.epoch++)
      client.on('error', lost)
      client.on('end', lost)
      state.client = client
      await client.connect()
      await client.query(`LISTEN ${CHANNEL}`)
      // Anything cached before the listener was up may have missed a change.
      state.epoch++
      state.live = true
      state.retryMs = 250
    } catch {
      lost()
    } finally {
      state.connecting = null
    }
  })()
  return state.connecting
}
