'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Resource } from '@/lib/client/api'
import { useAllResources } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'

export function ConnectorBindings({ slug }: { slug: string }) {
  const units = useAllResources<Resource<UnitSpec>>('units', { connector: slug })
  const agents = useAllResources<Resource<AgentSpec>>('agents', { connector: slug })
  const rows = [...(units.data ?? []).map((u) => ({ kind: 'Unit' as const, r: u })), ...(agents.data ?? []).map((a) => ({ kind: 'Agent' as const, r: a }))]
  const error = units.error ?? agents.error
  return (
    <Card
      title={<span>Bound to {units.data && agents.data && <span className="font-normal text-slate-500">{rows.length}</span>}</span>}
      description="Units and agents that list this slug in spec.connectors. A unit binding reaches every agent below it."
      bodyClassName=""
    >
      {units.isPending || agents.isPending ? (
        <LoadingState />
      ) : error ? (
        <ErrorState error={error} />
      ) : rows.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500">Not bound anywhere: no agent gets these tools.</p>
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Kind</Th>
              <Th>Name</Th>
              <Th>Namespace</Th>
            </tr>
          </THead>
          <TBody>
            {rows.map(({ kind, r }) => (
              <Tr key={r.id} data-testid="connector-binding">
                <Td className="text-slate-600">{kind}</Td>
                <Td>
                  <IntentLink href={resourceHref(kind, r.id)} className="font-medium text-sky-800 hover:underline">
                    {r.metadata.name}
                  </IntentLink>
                </Td>
                <Td className="font-mono text-xs text-slate-600">{r.metadata.namespace}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  )
}
