'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { useMayChangeKind } from '@/components/access/caller-context'
import { ApplyHint, NamespaceSearchList, type NamespaceSearchFilters } from '@/components/resources/resource-list-card'
import { Badge } from '@/components/ui/badge'
import { Td } from '@/components/ui/table'
import type { Resource } from '@/lib/client/api'
import { timeAgo } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'

/** What the API shows of a Secret: its type and key names, never values. */
export type Secret = Resource<{ type: string; keys: string[] }>

export function SecretsList({ initial }: { initial: NamespaceSearchFilters }) {
  const canCreate = useMayChangeKind('Secret')
  return (
    <NamespaceSearchList<Secret>
      plural="secrets"
      initial={initial}
      searchPlaceholder="Name…"
      loadingLabel="Loading secrets…"
      empty={{
        filtered: 'No secrets match these filters',
        unfiltered: 'No secrets yet',
        hint: canCreate ? <ApplyHint kind="Secret" verb="Create" /> : 'Admins create them.',
      }}
      columns={[
        { label: 'Name', sort: 'name' },
        { label: 'Namespace', sort: 'namespace' },
        'Type',
        'Keys',
        { label: 'Generation', className: 'text-right' },
        { label: 'Updated', sort: 'updated' },
      ]}
      rowAttributes={(s) => ({ 'data-testid': 'secret-row', 'data-name': s.metadata.name })}
      renderRow={(s) => (
        <>
          <Td>
            <IntentLink href={resourceHref('Secret', s.id)} className="font-mono font-medium text-slate-900 hover:underline">
              {s.metadata.name}
            </IntentLink>
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{s.metadata.namespace}</Td>
          <Td>
            <Badge>{s.spec.type}</Badge>
          </Td>
          <Td className="font-mono text-xs text-slate-700">{s.spec.keys.join(', ')}</Td>
          <Td className="text-right tabular-nums text-xs text-slate-700">{s.metadata.generation}</Td>
          <Td className="whitespace-nowrap text-xs text-slate-600">{timeAgo(s.metadata.updatedAt)}</Td>
        </>
      )}
    />
  )
}
