'use client'
// Calls by the person they were made for over the last 7 days (docs/design/statistics.md#calls-by-person):
// who the fleet works for, how often it fails them, and how many agents act for each. The calls
// agents made on their own are one row, "No person".
import { Card } from '@/components/ui/card'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { count, isHighFailureRate, percent } from '@/lib/client/format'
import type { CallsByPerson as Answer } from '@/lib/client/stats-api'
import { useCallsByPerson } from '@/lib/client/stats-hooks'

type Row = Answer['items'][number]

/** The issuer as people read it: its host (the full issuer is in the title). */
function issuerLabel(issuer: string): string {
  try {
    return new URL(issuer).host
  } catch {
    return issuer
  }
}

function PersonCell({ person }: { person: Row['onBehalfOf'] }) {
  if (!person)
    return (
      <>
        <div className="font-medium text-slate-700">No person</div>
        <div className="text-xs text-slate-500">agents acting as services</div>
      </>
    )
  return (
    <>
      <div className="font-medium text-slate-900 break-words">{person.displayName}</div>
      <div className="text-xs text-slate-600 break-all" title={`${person.subject} at ${person.issuer}`}>
        {person.subject} · {issuerLabel(person.issuer)}
      </div>
    </>
  )
}

export function CallsByPerson({
  limit = 20,
  issuer,
  title = 'Calls by person',
  description = 'Whom the calls of the last 7 days were made for.',
  emptyTitle = 'No calls in the last 7 days',
}: {
  limit?: number
  /** Only the people of this issuer (an identity provider's page). */
  issuer?: string
  title?: string
  description?: string
  emptyTitle?: string
}) {
  const query = useCallsByPerson(limit, issuer)
  return (
    <Card title={title} description={description} bodyClassName="">
      <QueryView query={query} loadingLabel="Loading…">
        {({ items, total }) =>
          items.length === 0 ? (
            <EmptyState title={emptyTitle} />
          ) : (
            <>
              <Table>
                <THead>
                  <Tr>
                    <Th>Person</Th>
                    <Th className="text-right">Calls</Th>
                    <Th className="text-right">Failures</Th>
                    <Th className="text-right">Agents</Th>
                  </Tr>
                </THead>
                <TBody>
                  {items.map((r) => (
                    <Tr key={r.onBehalfOf ? `${r.onBehalfOf.issuer}\n${r.onBehalfOf.subject}` : ''}>
                      <Td>
                        <PersonCell person={r.onBehalfOf} />
                      </Td>
                      <Td className="text-right tabular-nums">{count(r.calls)}</Td>
                      <Td className={`text-right tabular-nums ${isHighFailureRate(r.failureRate) ? 'font-medium text-red-700' : ''}`}>
                        {count(r.failures)}
                        {r.failures > 0 && <span className="block text-xs font-normal text-slate-600">{percent(r.failureRate)}</span>}
                      </Td>
                      <Td className="text-right tabular-nums">{count(r.agents)}</Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
              {(total > items.length || issuer) && (
                <p className="px-4 py-2 text-xs text-slate-600" data-testid="people-total">
                  {issuer && `${count(total)} ${total === 1 ? 'person' : 'people'} acted for in the last 7 days. `}
                  {total > items.length && `The ${count(items.length)} with the most calls are shown.`}
                </p>
              )}
            </>
          )
        }
      </QueryView>
    </Card>
  )
}
