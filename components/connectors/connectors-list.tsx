'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { NamespaceSearchList, type NamespaceSearchFilters } from '@/components/resources/resource-list-card'
import { Td } from '@/components/ui/table'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { Resource } from '@/lib/client/api'
import { refHref, resourceHref } from '@/lib/client/links'

export type Connector = Resource<ConnectorSpec>

export function ConnectorsList({ initial }: { initial: NamespaceSearchFilters }) {
  return (
    <NamespaceSearchList<Connector>
      plural="connectors"
      initial={initial}
      searchPlaceholder="Slug…"
      loadingLabel="Loading connectors…"
      empty={{
        filtered: 'No connectors match these filters',
        unfiltered: 'No connectors defined yet',
        hint: 'A connector reserves a tool namespace (its slug) and contributes an MCP server’s tools or a set of Tools.',
      }}
      columns={[{ label: 'Slug', sort: 'name' }, { label: 'Namespace', sort: 'namespace' }, 'Contributes', 'Description']}
      renderRow={(c) => (
        <>
          <Td>
            <IntentLink href={resourceHref('Connector', c.id)} className="font-mono font-medium text-slate-900 hover:underline">
              {c.metadata.name}
            </IntentLink>
            {c.spec.displayName && <div className="text-xs text-slate-500">{c.spec.displayName}</div>}
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{c.metadata.namespace}</Td>
          <Td className="text-sm text-slate-700">
            {c.spec.languageTool && (
              <div>
                MCP server{' '}
                <IntentLink
                  href={refHref('LanguageTool', c.spec.languageTool, c.metadata.namespace)}
                  className="font-mono text-xs text-sky-800 hover:underline"
                >
                  {c.spec.languageTool}
                </IntentLink>
              </div>
            )}
            {c.spec.tools?.length ? (
              <div>
                {c.spec.tools.length} tool{c.spec.tools.length === 1 ? '' : 's'}
              </div>
            ) : null}
          </Td>
          <Td className="max-w-md text-xs text-slate-600">{c.spec.description}</Td>
        </>
      )}
    />
  )
}
