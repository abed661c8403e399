import { Table, TBody, Th, THead } from '@/components/ui/table'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { EffectiveToolRow } from './effective-tool-row'

export function EffectiveToolsTable({ tools, unitNamespace, showProvenance }: { tools: EffectiveTool[]; unitNamespace: string; showProvenance?: boolean }) {
  return (
    <Table fixed>
      <THead>
        <tr>
          <Th>Tool</Th>
          <Th className="w-36">Side effects</Th>
          <Th className="w-52">Annotations</Th>
          <Th className="w-28">Rate limit</Th>
          <Th className="w-24 text-right">Calls 7d</Th>
          <Th className="w-48">State</Th>
        </tr>
      </THead>
      <TBody>
        {tools.map((t, i) => (
          // The same name can be excluded twice (shadowed by one tier, denied by a rule), so the index is part of the key.
          <EffectiveToolRow key={`${i}|${t.provenance}|${t.name}`} tool={t} unitNamespace={unitNamespace} showProvenance={showProvenance} />
        ))}
      </TBody>
    </Table>
  )
}
