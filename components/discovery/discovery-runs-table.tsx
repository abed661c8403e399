'use client'
import { Badge } from '@/components/ui/badge'
import { DefinitionList } from '@/components/ui/definition-list'
import { ExpandableRows, ExpandToggle } from '@/components/ui/expandable-rows'
import { Table, TBody, Td, Th, THead } from '@/components/ui/table'
import type { DiscoveryRun } from '@/lib/client/api'
import { between, dateTime, duration, shortDigest, timeAgo } from '@/lib/client/format'
import { RefusedEntries } from './refused-entries'
import { RunStatusBadge, SubjectLink, TriggerLabel } from './discovery-badges'

const mono = (text: string) => <code className="break-all font-mono text-xs">{text}</code>

/** "readiness · network": where an image introspection stopped and why. */
export function failurePoint(run: DiscoveryRun): string | null {
  const { step, failure } = run.details ?? {}
  if (!step && !failure) return null
  return [step, failure?.replace(/_/g, ' ')].filter(Boolean).join(' · ')
}

function timings(run: DiscoveryRun): string | null {
  const t = run.details?.timings
  if (!t) return null
  const parts = [
    t.readyMs !== undefined ? `ready after ${duration(t.readyMs)}` : null,
    t.toolsMs !== undefined ? `/a2a/tools ${duration(t.toolsMs)}` : null,
    t.listMs !== undefined ? `tools/list ${duration(t.listMs)}` : null,
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : null
}

/** The outcome of a run in one cell: tools and diff, or the error. */
function Outcome({ run }: { run: DiscoveryRun }) {
  const refused = run.details?.refused?.length ?? 0
  if (run.status === 'running') return <span className="text-xs text-slate-500">in progress…</span>
  if (run.status === 'failed') {
    const point = failurePoint(run)
    return (
      <div className="min-w-0 text-xs">
        {point && (
          <Badge tone="red" className="mb-0.5 mr-1 font-mono font-normal">
            {point}
          </Badge>
        )}
        <span className="line-clamp-2 break-words text-red-800" title={run.error ?? undefined}>
          {run.error ?? 'no error recorded'}
        </span>
      </div>
    )
  }
  const diff = run.details?.diff
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-700">
      <span className="tabular-nums">
        {run.toolCount ?? 0} tool{run.toolCount === 1 ? '' : 's'}
      </span>
      {diff && diff !== 'no change' ? (
        <span className="line-clamp-2 break-words font-mono text-[11px] text-slate-600" title={diff}>
          {diff}
        </span>
      ) : (
        <span className="text-slate-400">no change</span>
      )}
      {run.details?.held && <Badge tone="amber">held for review</Badge>}
      {refused > 0 && <Badge tone="red">{refused} refused</Badge>}
    </div>
  )
}

function RunDetails({ run }: { run: DiscoveryRun }) {
  const d = run.details ?? {}
  const card = d.agentCard
  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-white p-3">
      <DefinitionList
        columns={3}
        items={[
          ['Endpoint', d.endpoint ? mono(d.endpoint) : null],
          ['Started', dateTime(run.startedAt)],
          ['Finished', run.finishedAt ? `${dateTime(run.finishedAt)} (${between(run.startedAt, run.finishedAt)})` : 'not yet'],
          [
            'Image digest',
            run.digest ? <span className="break-all font-mono text-xs">{run.digest}</span> : run.subjectKind === 'LanguageTool' ? null : 'not pinned',
          ],
          ['Transport', d.transport ?? null],
          ['Health', d.health ?? null],
          ['Readiness attempts', d.attempts !== undefined ? String(d.attempts) : null],
          ['Timings', timings(run)],
          ['Agent card', card ? `${card.name ?? '(no name)'}${card.version ? ` ${card.version}` : ''}` : null],
          ['Failed at', failurePoint(run)],
          ['Queue attempt', String(run.attempt)],
          ['Surface diff', d.diff ? <span className="break-all font-mono text-xs">{d.diff}</span> : null],
        ]}
      />
      {run.error && (
        <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
          <p className="font-semibold">Error</p>
          <p className="mt-0.5 break-words font-mono">{run.error}</p>
        </div>
      )}
      {(d.refused?.length ?? 0) > 0 && <RefusedEntries refused={d.refused!} />}
    </div>
  )
}

/** Discovery runs, newest first; a row opens to everything the run recorded. */
export function DiscoveryRunsTable({ runs, showSubject = false }: { runs: DiscoveryRun[]; showSubject?: boolean }) {
  return (
    <Table>
      <THead>
        <tr>
          {showSubject && <Th>Subject</Th>}
          <Th>Status</Th>
          <Th>Trigger</Th>
          <Th className="text-right">Attempt</Th>
          <Th>Started</Th>
          <Th className="text-right">Duration</Th>
          <Th className="w-[40%]">Outcome</Th>
        </tr>
      </THead>
      <TBody>
        <ExpandableRows
          items={runs}
          rowKey={(run) => run.id}
          rowAttributes={(run) => ({
            'data-testid': 'discovery-run-row',
            'data-run-id': run.id,
            'data-status': run.status,
            'data-subject-kind': run.subjectKind,
          })}
          columnCount={showSubject ? 7 : 6}
          details={(run) => <RunDetails run={run} />}
        >
          {(run, expanded) => (
            <>
              {showSubject && (
                <Td className="max-w-64" onClick={(e) => e.stopPropagation()}>
                  <SubjectLink kind={run.subjectKind} id={run.subjectId} namespace={run.namespace} name={run.name} />
                </Td>
              )}
              <Td className="whitespace-nowrap">
                <ExpandToggle
                  expanded={expanded}
                  label={`${expanded ? 'Hide' : 'Show'} details of the ${run.status} run of ${run.name} started ${timeAgo(run.startedAt)}`}
                >
                  <RunStatusBadge status={run.status} />
                </ExpandToggle>
              </Td>
              <Td>
                <TriggerLabel trigger={run.trigger} />
              </Td>
              <Td className="text-right tabular-nums text-xs text-slate-700">{run.attempt}</Td>
              <Td className="whitespace-nowrap text-xs text-slate-700">
                <span title={dateTime(run.startedAt)}>{timeAgo(run.startedAt)}</span>
                {run.digest && (
                  <div className="font-mono text-[11px] text-slate-500" title={run.digest}>
                    {shortDigest(run.digest)}
                  </div>
                )}
              </Td>
              <Td className="whitespace-nowrap text-right tabular-nums text-xs text-slate-700">{between(run.startedAt, run.finishedAt)}</Td>
              <Td>
                <Outcome run={run} />
              </Td>
            </>
          )}
        </ExpandableRows>
      </TBody>
    </Table>
  )
}
