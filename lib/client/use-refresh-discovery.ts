'use client'
// "Refresh now": queue a discovery run of one subject, then follow the runs list until the run it
// started has finished, and mark everything it may have changed as stale.
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, listDiscoveryRuns, refreshDiscovery, type DiscoveryRun, type DiscoverySubjectKind, type RefreshPlural } from './api'
import { queryKeys } from './query-keys'

export type RefreshState =
  | { phase: 'idle' }
  /** Asking the API to queue the run. */
  | { phase: 'queueing' }
  /** Queued; no worker has picked it up yet. */
  | { phase: 'waiting' }
  | { phase: 'running'; run: DiscoveryRun }
  | { phase: 'done'; run: DiscoveryRun }
  /** No run finished within the time limit (no worker running, or a long readiness wait). */
  | { phase: 'stalled' }
  | { phase: 'error'; error: ApiError }

/** How long the button follows a run before it gives up saying so (the run itself goes on). */
const FOLLOW_MS = 3 * 60_000
const POLL_MS = [500, 1000, 1000, 1500, 2000]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function useRefreshDiscovery({ plural, kind, subjectId }: { plural: RefreshPlural; kind: DiscoverySubjectKind; subjectId: string }) {
  const client = useQueryClient()
  const [state, setState] = useState<RefreshState>({ phase: 'idle' })
  // Stops following when the page goes away (set again on mount: StrictMode mounts twice).
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const invalidate = useCallback(
    (everything: boolean) => {
      void client.invalidateQueries({ queryKey: queryKeys.discovery() })
      if (!everything) return
      void client.invalidateQueries({ queryKey: queryKeys.details(plural) })
      void client.invalidateQueries({ queryKey: queryKeys.lists(plural) })
      void client.invalidateQueries({ queryKey: queryKeys.overview() })
      // An MCP server's tools reach agents and units through their effective tool sets.
      if (plural === 'languagetools') {
        void client.invalidateQueries({ queryKey: queryKeys.details('agents') })
        void client.invalidateQueries({ queryKey: queryKeys.details('units') })
      }
    },
    [client, plural],
  )

  const start = useCallback(async () => {
    setState({ phase: 'queueing' })
    const filters = { subjectKind: kind, subjectId, limit: 20 }
    try {
      // Runs that exist before the request are not the one it starts.
      const before = await listDiscoveryRuns(filters)
      const seen = new Set(before.items.map((r) => r.id))
      await refreshDiscovery(plural, subjectId)
      if (!alive.current) return
      setState({ phase: 'waiting' })
      const deadline = Date.now() + FOLLOW_MS
      let lastStatus = ''
      for (let i = 0; Date.now() < deadline; i++) {
        await sleep(POLL_MS[Math.min(i, POLL_MS.length - 1)])
        if (!alive.current) return
        const fresh = (await listDiscoveryRuns(filters)).items.filter((r) => !seen.has(r.id))
        if (!alive.current) return
        // The oldest new run is the one this request started (later ones are retries or the sweep).
        const run = fresh[fresh.length - 1]
        if (!run) continue
        if (run.status !== lastStatus) {
          lastStatus = run.status
          invalidate(run.status !== 'running')
        }
        if (run.status === 'running') {
          setState({ phase: 'running', run })
          continue
        }
        setState({ phase: 'done', run })
        return
      }
      setState({ phase: 'stalled' })
      invalidate(true)
    } catch (error) {
      if (!alive.current) return
      setState({ phase: 'error', error: error instanceof ApiError ? error : new ApiError(0, 'Error', (error as Error).message) })
    }
  }, [invalidate, kind, plural, subjectId])

  const busy = state.phase === 'queueing' || state.phase === 'waiting' || state.phase === 'running'
  return { state, start, busy }
}
