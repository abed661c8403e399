// Tells connected agents that their tool list changed. Every gateway process LISTENs to the
// registry's own NOTIFY (lib/registry/registry-changes.ts), so a change committed anywhere (the API,
// Apply, a discovery worker) reaches the agents connected to any process, with no state shared
// between gateways. After each change, the tools/list answer of every watched agent is worked out
// again and compared with the last one: only agents whose list is different hear about it.
import 'server-only'
import { createHash } from 'node:crypto'
import { onRegistryChange } from '@/lib/registry/registry-changes'
import { agentTools } from './agent-tools'

/** Changes arriving together (an Apply of many documents) are looked at once. */
const SETTLE_MS = 50

interface Watch {
  listeners: Set<() => void>
  /** The last tools/list answer seen, hashed; null until the first one is known. */
  fingerprint: string | null
}

interface State {
  watches: Map<string, Watch>
  stopListening: (() => void) | null
  timer: ReturnType<typeof setTimeout> | null
  running: Promise<void> | null
  again: boolean
}

const state: State = ((globalThis as { __toolroomToolListChanges?: State }).__toolroomToolListChanges ??= {
  watches: new Map(),
  stopListening: null,
  timer: null,
  running: null,
  again: false,
})

async function fingerprintOf(agentId: string): Promise<string> {
  const tools = await agentTools(agentId)
  return createHash('sha256')
    .update(tools ? JSON.stringify(tools.list) : 'no such agent')
    .digest('base64url')
}

/**
 * Calls `listener` whenever the tools/list answer of `agentId` changes, in any process, until the
 * returned function is called.
 */
export function watchToolList(agentId: string, listener: () => void): () => void {
  state.stopListening ??= onRegistryChange(changed)
  let watch = state.watches.get(agentId)
  if (!watch) {
    const created: Watch = { listeners: new Set(), fingerprint: null }
    state.watches.set(agentId, created)
    void fingerprintOf(agentId).then(
      (f) => (created.fingerprint ??= f),
      () => {},
    )
    watch = created
  }
  watch.listeners.add(listener)
  const current = watch
  return () => {
    current.listeners.delete(listener)
    if (current.listeners.size === 0 && state.watches.get(agentId) === current) state.watches.delete(agentId)
    if (state.watches.size === 0 && state.stopListening) {
      state.stopListening()
      state.stopListening = null
    }
  }
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
  for (const [agentId, watch] of [...state.watches]) {
    const fingerprint = await fingerprintOf(agentId).catch(() => null)
    if (fingerprint === null) continue
    const before = watch.fingerprint
    watch.fingerprint = fingerprint
    if (before === null || before === fingerprint) continue
    for (const listener of [...watch.listeners]) {
      try {
        listener()
      } catch {
        // one stream's failure is its own
      }
    }
  }
}
