'use client'
// What an Apply (or its dry run) did or would do: per document its action and, where the answer
// carries them, its field changes in the audit log's diff view; for a dry run, how agents' effective
// tool sets would change.
import { Fragment, useState } from 'react'
import { JsonDiff } from '@/components/discovery/value-diff'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { IntentLink } from '@/components/ui/intent-link'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import {
  type ApplyAction,
  type ApplyAnswer,
  type ApplyDocumentResult,
  type ApplyImpact,
  type ApplyWarning,
  changeKind,
  changesAsDocuments,
  countActions,
  impactRows,
} from '@/lib/client/apply-answer'
import { count } from '@/lib/client/format'
import { hasPage, resourceHref } from '@/lib/client/links'

const ACTION_TONE: Record<ApplyAction, BadgeTone> = { created: 'green', updated: 'blue', unchanged: 'gray', deleted: 'red' }
const CHANGE_TONE = { gained: 'green', lost: 'red', changed: 'amber' } as const

function Summary({ answer }: { answer: ApplyAnswer }) {
  const counts = countActions(answer.results)
  const would = answer.dryRun ? 'would be ' : ''
  const parts = [
    `${counts.created} ${would}created`,
    `${counts.updated} ${would}updated`,
    `${counts.unchanged} unchanged`,
    ...(counts.deleted ? [`${counts.deleted} ${would}deleted`] : []),
  ]
  return (
    <div
      className={`flex flex-wrap items-center gap-2 border-b px-4 py-3 text-sm ${answer.dryRun ? 'border-sky-200 bg-sky-50 text-sky-900' : 'border-emerald-200 bg-emerald-50 text-emerald-900'}`}
    >
      <span className="font-semibold">{answer.dryRun ? 'Valid. Dry run: nothing was written.' : 'Applied.'}</span>
      <span>
        {answer.results.length} document{answer.results.length === 1 ? '' : 's'}: {parts.join(', ')}.
      </span>
    </div>
  )
}

function ChangeSummary({ result }: { result: ApplyDocumentResult }) {
  if (!result.changes || result.changes.length === 0) return null
  const kinds = result.changes.map(changeKind)
  const n = (k: string) => kinds.filter((x) => x === k).length
  return (
    <span className="text-xs text-slate-600">
      {[n('changed') && `${n('changed')} changed`, n('added') && `${n('added')} added`, n('removed') && `${n('removed')} removed`].filter(Boolean).join(', ')}
    </span>
  )
}

/** Documents by their index; resources prune deletes (no index) by identity. */
const rowKey = (r: ApplyDocumentResult) => (r.index === null ? `pruned:${r.kind}/${r.namespace}/${r.name}` : String(r.index))

function DocumentRows({ answer }: { answer: ApplyAnswer }) {
  // Updated documents open on their diff at once when there are few of them.
  const withChanges = answer.results.filter((r) => r.changes && r.changes.length > 0)
  const [open, setOpen] = useState<Set<string>>(() => new Set(withChanges.length <= 3 ? withChanges.map(rowKey) : []))
  // Answers from before field changes were computed carry none: no column for them then.
  const showChanges = answer.results.some((r) => r.changes !== undefined)
  const toggle = (key: string) => setOpen((was) => (was.has(key) ? new Set([...was].filter((k) => k !== key)) : new Set([...was, key])))
  return (
    <Table>
      <THead>
        <tr>
          <Th className="w-20">Document</Th>
          <Th>Kind</Th>
          <Th>Namespace / name</Th>
          <Th>Action</Th>
          {showChanges && <Th>Changes</Th>}
        </tr>
      </THead>
      <TBody>
        {answer.results.map((r) => {
          const hasChanges = Boolean(r.changes && r.changes.length > 0)
          const key = rowKey(r)
          const expanded = open.has(key)
          return (
            <Fragment key={key}>
              <Tr data-testid="apply-result-row" data-action={r.action}>
                <Td className="tabular-nums text-slate-600">{r.index ?? <span title="Not in the manifest: prune deletes it">pruned</span>}</Td>
                <Td>
                  {r.kind} <span className="text-xs text-slate-500">{r.apiVersion}</span>
                </Td>
                <Td className="font-mono text-xs">
                  {hasPage(r.kind) && r.id && r.action !== 'deleted' ? (
                    <IntentLink href={resourceHref(r.kind, r.id)} className="text-sky-800 [overflow-wrap:anywhere] hover:underline">
                      {r.namespace}/{r.name}
                    </IntentLink>
                  ) : (
                    <span className="[overflow-wrap:anywhere]">
                      {r.namespace}/{r.name}
                    </span>
                  )}
                </Td>
                <Td>
                  <Badge tone={ACTION_TONE[r.action]}>{answer.dryRun && r.action !== 'unchanged' ? `would be ${r.action}` : r.action}</Badge>
                </Td>
                {showChanges && (
                  <Td>
                    {hasChanges && (
                      <button
                        type="button"
                        aria-expanded={expanded}
                        onClick={() => toggle(key)}
                        className="inline-flex items-center gap-1.5 text-left text-xs text-sky-800 hover:underline"
                      >
                        <span aria-hidden>{expanded ? '▾' : '▸'}</span>
                        <span>{expanded ? 'Hide' : 'Show'} the diff</span>
                        <ChangeSummary result={r} />
                      </button>
                    )}
                  </Td>
                )}
              </Tr>
              {hasChanges && expanded && (
                <tr className="bg-slate-50" data-testid="apply-diff">
                  <td colSpan={showChanges ? 5 : 4} className="px-3 pb-3 pt-1">
                    <ul
                      className="mb-2 flex flex-wrap gap-x-3 gap-y-1 font-mono text-[11px] text-slate-600"
                      aria-label={`Changed fields of ${r.kind} ${r.namespace}/${r.name}`}
                    >
                      {r.changes!.map((c) => (
                        <li key={c.path}>
                          {c.path} <span className="text-slate-500">({changeKind(c)})</span>
                        </li>
                      ))}
                    </ul>
                    <JsonDiff {...changesAsDocuments(r.changes!)} format="yaml" />
                  </td>
                </tr>
              )}
            </Fragment>
          )
        })}
      </TBody>
    </Table>
  )
}

function Warnings({ warnings }: { warnings: ApplyWarning[] }) {
  return (
    <section aria-labelledby="apply-warnings-title" data-testid="apply-warnings" className="border-b border-amber-200 bg-amber-50 px-4 py-3">
      <h3 id="apply-warnings-title" className="text-sm font-semibold text-amber-900">
        {warnings.length} warning{warnings.length === 1 ? '' : 's'}: valid, but would fail once applied
      </h3>
      <ul className="mt-1.5 space-y-1 text-xs text-amber-950">
        {warnings.map((w, i) => (
          <li key={i} data-testid="apply-warning" data-reason={w.reason} className="[overflow-wrap:anywhere]">
            <span className="font-mono">
              {w.kind} {w.namespace}/{w.name} · {w.field}
            </span>{' '}
            (document {w.index}): {w.message}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** `applied`: the impact shown is the dry run's of the same text, kept once the apply went through. */
function Impact({ impact, applied }: { impact: ApplyImpact; applied: boolean }) {
  const rows = impactRows(impact)
  return (
    <section aria-labelledby="apply-impact-title" data-testid="apply-impact" className="border-t border-slate-200">
      <div className="px-4 py-3">
        <h3 id="apply-impact-title" className="text-sm font-semibold text-slate-900">
          Impact on agents
        </h3>
        <p className="mt-0.5 text-xs text-slate-600">
          {applied
            ? `${count(impact.agentsAffected)} of ${count(impact.agentsChecked)} agents checked saw their effective tool set change (as the dry run of this manifest worked it out before the apply).`
            : `${count(impact.agentsAffected)} of ${count(impact.agentsChecked)} agents checked would see their effective tool set change.`}
        </p>
      </div>
      {rows.length > 0 && (
        <Table>
          <THead>
            <tr>
              <Th>Agent</Th>
              <Th>Tool</Th>
              <Th>Change</Th>
              <Th>Before → after</Th>
              <Th>Why</Th>
            </tr>
          </THead>
          <TBody>
            {rows.map((row, i) => (
              <Tr key={i} data-testid="apply-impact-row" data-change={row.change}>
                <Td className="font-mono text-xs">
                  <IntentLink
                    href={resourceHref('Agent', row.agent.name, row.agent.namespace)}
                    className="text-sky-800 [overflow-wrap:anywhere] hover:underline"
                  >
                    {row.agent.namespace}/{row.agent.name}
                  </IntentLink>
                </Td>
                <Td className="font-mono text-xs [overflow-wrap:anywhere]">{row.tool}</Td>
                <Td>
                  <Badge tone={CHANGE_TONE[row.change]}>{row.change}</Badge>
                </Td>
                <Td className="text-xs text-slate-700">
                  {row.before} → {row.after}
                </Td>
                <Td className="text-xs text-slate-700">{row.reason}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  )
}

/**
 * `dryRun`: the last dry run of the same manifest text, whose impact and warnings stay on screen after
 * the apply (a real apply's answer carries neither).
 */
export function ApplyResults({ answer, dryRun }: { answer: ApplyAnswer; dryRun?: ApplyAnswer | null }) {
  const kept = !answer.dryRun && dryRun ? dryRun : null
  const impact = answer.impact ?? kept?.impact
  const warnings = answer.warnings ?? kept?.warnings ?? []
  return (
    <div data-testid="apply-results">
      <Summary answer={answer} />
      {warnings.length > 0 && <Warnings warnings={warnings} />}
      <DocumentRows answer={answer} />
      {impact ? (
        <Impact impact={impact} applied={!answer.dryRun} />
      ) : (
        !answer.dryRun && (
          <p className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600" data-testid="apply-no-impact">
            Applied without a dry run of this text: validate before applying to see which agents&apos; tools change.
          </p>
        )
      )}
    </div>
  )
}
