'use client'
// The tools that failed most over the last 7 days: each id leads to its failed calls, and the line
// under it to the tool's own page (a Tool's opens at its failure view).
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { count, isHighFailureRate, percent } from '@/lib/client/format'
import { resolvedToolHref } from '@/lib/client/links'
import type { FailingTool } from '@/lib/client/stats-api'
import { useTopFailingTools } from '@/lib/client/stats-hooks'

// Same-named tools from different namespaces or servers are listed apart: say which one each is.
function sourceLabel(source: FailingTool['source']): string {
  if (!source) return "not in the caller's tool set"
  if (source.kind === 'Platform') return 'Toolroom platform tool'
  return `${source.kind} ${source.namespace}/${source.name}`
}

function SourceLine({ tool }: { tool: FailingTool }) {
  const href = resolvedToolHref(tool.key)
  if (!href) return <div className="text-xs text-slate-500">{sourceLabel(tool.source)}</div>
  return (
    <IntentLink href={tool.source?.kind === 'Tool' ? `${href}#failures` : href} className="block text-xs text-slate-600 hover:text-slate-900 hover:underline">
      {sourceLabel(tool.source)}
    </IntentLink>
  )
}

export function TopFailingTools({ limit = 10 }: { limit?: number }) {
  const query = useTopFailingTools(limit)
  return (
    <Card title="Top failing tools" description="Most failed calls over the last 7 days." bodyClassName="">
      <QueryView query={query} loadingLabel="Loading…">
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState title="No failed calls in the last 7 days" />
          ) : (
            <Table>
              <THead>
                <Tr>
                  <Th>Tool</Th>
                  <Th className="text-right">Calls</Th>
                  <Th className="text-right">Failures</Th>
                  <Th className="text-right">Failure rate</Th>
                </Tr>
              </THead>
              <TBody>
                {items.map((t) => (
                  <Tr key={t.key}>
                    <Td>
                      <IntentLink
                        href={`/calls?toolKey=${encodeURIComponent(t.key)}&outcome=failed`}
                        className="font-mono text-xs text-sky-800 hover:underline"
                      >
                        {t.toolId}
                      </IntentLink>
                      <SourceLine tool={t} />
                    </Td>
                    <Td className="text-right tabular-nums">{count(t.calls)}</Td>
                    <Td className="text-right tabular-nums text-red-700">{count(t.failures)}</Td>
                    <Td className={`text-right tabular-nums ${isHighFailureRate(t.failureRate) ? 'font-medium text-red-700' : ''}`}>
                      {percent(t.failureRate)}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )
        }
      </QueryView>
    </Card>
  )
}
