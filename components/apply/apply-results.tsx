import { IntentLink } from '@/components/ui/intent-link'
import { FieldErrorsTable } from '@/components/ui/field-errors-table'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { ApiError, ApplyAction, ApplyAnswer } from '@/lib/client/api'
import { hasPage, resourceHref } from '@/lib/client/links'

const ACTION_TONE: Record<ApplyAction, BadgeTone> = { created: 'green', updated: 'blue', unchanged: 'gray', deleted: 'red' }

export function ApplyResults({ answer }: { answer: ApplyAnswer }) {
  const { summary } = answer
  return (
    <div data-testid="apply-results">
      <div className={`flex flex-wrap items-center gap-2 border-b px-4 py-3 text-sm ${answer.dryRun ? 'border-sky-200 bg-sky-50 text-sky-900' : 'border-emerald-200 bg-emerald-50 text-emerald-900'}`}>
        <span className="font-semibold">{answer.dryRun ? 'Valid. Dry run: nothing was written.' : 'Applied.'}</span>
        <span>
          {answer.results.length} document{answer.results.length === 1 ? '' : 's'}: {summary.created} {answer.dryRun ? 'would be ' : ''}created, {summary.updated}{' '}
          {answer.dryRun ? 'would be ' : ''}updated, {summary.unchanged} unchanged.
        </span>
      </div>
      <Table>
        <THead>
          <tr>
            <Th className="w-20">Document</Th>
            <Th>Kind</Th>
            <Th>Namespace / name</Th>
            <Th>Action</Th>
          </tr>
        </THead>
        <TBody>
          {answer.results.map((r) => (
            <Tr key={r.index} data-testid="apply-result-row" data-action={r.action}>
              <Td className="tabular-nums text-slate-600">{r.index}</Td>
              <Td>
                {r.kind} <span className="text-xs text-slate-400">{r.apiVersion}</span>
              </Td>
              <Td className="font-mono text-xs">
                {hasPage(r.kind) && r.id ? (
                  <IntentLink href={resourceHref(r.kind, r.id)} className="text-sky-800 hover:underline">
                    {r.namespace}/{r.name}
                  </IntentLink>
                ) : (
                  <span>
                    {r.namespace}/{r.name}
                  </span>
                )}
              </Td>
              <Td>
                <Badge tone={ACTION_TONE[r.action]}>{answer.dryRun && r.action !== 'unchanged' ? `would be ${r.action}` : r.action}</Badge>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </div>
  )
}

export function ApplyErrors({ error }: { error: ApiError }) {
  return (
    <div role="alert" data-testid="apply-errors" className="p-4 text-sm text-red-900">
      <p className="font-semibold">
        {error.status === 422 || error.status === 403 ? 'The manifest was refused; nothing was written.' : error.title}
      </p>
      <p className="mt-1">{error.message}</p>
      {error.errors.length > 0 && <FieldErrorsTable errors={error.errors} showDocument />}
    </div>
  )
}
