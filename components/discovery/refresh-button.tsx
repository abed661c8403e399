'use client'
import { useCan } from '@/components/access/caller-context'
import { Button } from '@/components/ui/button'
import type { DiscoverySubjectKind, RefreshPlural } from '@/lib/client/api'
import { between } from '@/lib/client/format'
import { useRefreshDiscovery, type RefreshState } from '@/lib/client/use-refresh-discovery'

function StateLine({ state }: { state: RefreshState }) {
  switch (state.phase) {
    case 'idle':
      return null
    case 'queueing':
      return <span className="text-slate-500">Queuing…</span>
    case 'waiting':
      return <span className="text-slate-500">Queued; waiting for a discovery worker…</span>
    case 'running':
      return <span className="text-sky-800">Running{state.run.attempt > 1 ? ` (attempt ${state.run.attempt})` : ''}…</span>
    case 'done': {
      const { run } = state
      if (run.status === 'succeeded') {
        const diff = run.details?.diff
        return (
          <span className="text-emerald-800">
            Succeeded in {between(run.startedAt, run.finishedAt)}: {run.toolCount ?? 0} tool{run.toolCount === 1 ? '' : 's'}
            {diff ? `, ${diff}` : ''}
            {run.details?.held ? ' (held for review)' : ''}
          </span>
        )
      }
      // The full error is on the page (last run, recent runs); here only what and where.
      const where = [run.details?.step, run.details?.failure?.replace(/_/g, ' ')].filter(Boolean).join(' · ')
      return (
        <span className="text-red-800" title={run.error ?? undefined}>
          Failed after {between(run.startedAt, run.finishedAt)}
          {where ? ` (${where})` : ''}: see the run below.
        </span>
      )
    }
    case 'stalled':
      return <span className="text-amber-800">No run finished within 3 minutes. Is a discovery worker running? The request stays queued.</span>
    case 'error':
      return <span className="text-red-800">Could not queue a run: {state.error.message}</span>
  }
}

/**
 * Queues a discovery run of the subject now and follows it to its end. The button keeps its name
 * while a run is under way (it is disabled instead); what is happening is announced beside it.
 */
export function RefreshButton({
  plural,
  kind,
  subjectId,
  variant = 'secondary',
}: {
  plural: RefreshPlural
  kind: DiscoverySubjectKind
  subjectId: string
  variant?: 'primary' | 'secondary'
}) {
  const canWrite = useCan('write')
  const { state, start, busy } = useRefreshDiscovery({ plural, kind, subjectId })
  // Queuing a run is a change (access "write"): roles without it see no button.
  if (!canWrite) return null
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center justify-end gap-2">
      <span role="status" aria-live="polite" className="line-clamp-2 max-w-[24rem] min-w-0 text-right text-xs" data-phase={state.phase}>
        <StateLine state={state} />
      </span>
      <Button variant={variant} onClick={() => void start()} disabled={busy} aria-busy={busy} className="shrink-0">
        <span aria-hidden className={`inline-block ${busy ? 'animate-spin' : ''}`}>
          ↻
        </span>
        Refresh now
      </Button>
    </span>
  )
}
