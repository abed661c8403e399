'use client'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { ErrorState, LoadingState } from '@/components/ui/states'
import type { DiscoveryRun } from '@/lib/client/api'
import { between, dateTime, shortDigest, timeAgo } from '@/lib/client/format'
import { useDiscoveryRuns } from '@/lib/client/hooks'
import { DiscoveryRunsList } from './discovery-runs-card'
import { RefreshButton } from './refresh-button'
import { RefusedEntries } from './refused-entries'
import { RunStatusBadge, TriggerLabel } from './discovery-badges'

const RECENT = 5

function LastRun({ run }: { run: DiscoveryRun }) {
  return (
    <div className="space-y-3">
      <DefinitionList
        columns={3}
        items={[
          [
            'Last run',
            <span key="s" className="inline-flex items-center gap-2">
              <RunStatusBadge status={run.status} />
              <TriggerLabel trigger={run.trigger} />
              {run.attempt > 1 && <span className="text-xs text-slate-500">attempt {run.attempt}</span>}
            </span>,
          ],
          [
            'When',
            <span key="w" title={dateTime(run.startedAt)}>
              {timeAgo(run.startedAt)} <span className="text-xs text-slate-500">({dateTime(run.startedAt)})</span>
            </span>,
          ],
          ['Duration', run.finishedAt ? between(run.startedAt, run.finishedAt) : 'still running'],
          [
            'Digest',
            run.digest ? (
              <span className="font-mono text-xs" title={run.digest}>
                {shortDigest(run.digest, 16)}
              </span>
            ) : (
              <span className="text-slate-400">image not pinned</span>
            ),
          ],
          ['Tools', run.status === 'succeeded' ? `${run.toolCount ?? 0}${run.details?.diff ? ` · ${run.details.diff}` : ''}` : null],
          ['Agent card', run.details?.agentCard ? `${run.details.agentCard.name ?? '(no name)'} ${run.details.agentCard.version ?? ''}`.trim() : null],
        ]}
      />
      {run.status === 'failed' && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-semibold">
            Introspection failed
            {run.details?.step && (
              <>
                {' '}
                at the <span className="font-mono">{run.details.step}</span> step
              </>
            )}
            {run.details?.failure && (
              <>
                {' '}
                (<span className="font-mono">{run.details.failure.replace(/_/g, ' ')}</span>)
              </>
            )}
          </p>
          <p className="mt-1 break-words font-mono text-xs">{run.error ?? 'no error recorded'}</p>
          <p className="mt-1 text-xs text-red-800">The cached image tools are kept as they were; a failed introspection never blocks a deploy.</p>
        </div>
      )}
    </div>
  )
}

function LastSuccess({ run, isLast }: { run: DiscoveryRun | undefined; isLast: boolean }) {
  if (!run) return <p className="text-xs text-slate-500">No introspection of this image has succeeded yet.</p>
  const refused = run.details?.refused ?? []
  const when = isLast ? 'The last run' : `The last successful run (${timeAgo(run.startedAt)})`
  if (refused.length === 0) return <p className="text-xs text-slate-500">{when} refused no entries: every tool the image declares passed validation.</p>
  return (
    <RefusedEntries refused={refused} title={`${when} refused ${refused.length} entr${refused.length === 1 ? 'y' : 'ies'}; they are not offered to anyone`} />
  )
}

/**
 * Image introspection of an agent or unit (docs/design/discovery.md): the last run, what it refused, the runs before
 * it, and "Refresh now". Sits beside the read-only Image section whose tools it fills.
 */
export function IntrospectionSection({
  plural,
  kind,
  subjectId,
  endpoint,
}: {
  plural: 'agents' | 'units'
  kind: 'Agent' | 'Unit'
  subjectId: string
  endpoint?: string | null
}) {
  const filters = { subjectKind: kind, subjectId }
  const recent = useDiscoveryRuns(filters, RECENT)
  const lastOk = useDiscoveryRuns({ ...filters, status: 'succeeded' }, 1)
  const last = recent.items[0]
  return (
    <Card
      id="introspection"
      title="Introspection"
      description={
        <>
          <code className="font-mono">GET /.well-known/agent.json</code> until it answers, then <code className="font-mono">GET /a2a/tools</code>
          {endpoint ? (
            <>
              {' '}
              at <code className="break-all font-mono">{endpoint}</code>
            </>
          ) : null}
          . Runs on creation, on a new digest, periodically and on request.
        </>
      }
      actions={<RefreshButton plural={plural} kind={kind} subjectId={subjectId} />}
      bodyClassName=""
    >
      <div className="space-y-3 border-b border-slate-200 p-4">
        {recent.isPending ? (
          <LoadingState label="Loading the last run…" />
        ) : recent.isError ? (
          <ErrorState error={recent.error} onRetry={() => void recent.refetch()} />
        ) : !last ? (
          <p className="text-sm text-slate-500">No introspection has run for this image yet. Use “Refresh now” to run one.</p>
        ) : (
          <>
            <LastRun run={last} />
            {!lastOk.isPending && <LastSuccess run={lastOk.items[0]} isLast={lastOk.items[0]?.id === last.id} />}
          </>
        )}
      </div>
      <h3 className="px-4 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Recent runs</h3>
      <DiscoveryRunsList filters={filters} pageSize={RECENT} emptyTitle="No runs yet" />
    </Card>
  )
}
