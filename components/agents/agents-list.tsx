'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { ApplyHint, NamespaceSearchList, type NamespaceSearchFilters } from '@/components/resources/resource-list-card'
import { Td } from '@/components/ui/table'
import type { AgentSpec } from '@/lib/manifests/specs/fleet'
import type { FleetStatus, Resource } from '@/lib/client/api'
import { shortDigest } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'

type Agent = Resource<AgentSpec, FleetStatus>

function imageName(image: string | undefined) {
  if (!image) return null
  const at = image.indexOf('@')
  return at === -1 ? image : image.slice(0, at)
}

export function AgentsList({ initial }: { initial: NamespaceSearchFilters }) {
  return (
    <NamespaceSearchList<Agent>
      plural="agents"
      initial={initial}
      searchPlaceholder="Agent name…"
      loadingLabel="Loading agents…"
      empty={{ filtered: 'No agents match these filters', unfiltered: 'No agents registered yet', hint: <ApplyHint verb="Define" kind="Agent" /> }}
      columns={[
        { label: 'Name', sort: 'name' },
        { label: 'Namespace', sort: 'namespace' },
        'Unit',
        'Image',
        'Image digest',
        { label: 'Image tools', className: 'text-right' },
      ]}
      renderRow={(a) => (
        <>
          <Td>
            <IntentLink href={resourceHref('Agent', a.id)} className="font-medium text-slate-900 hover:underline">
              {a.metadata.name}
            </IntentLink>
            {a.spec.displayName && <div className="text-xs text-slate-500">{a.spec.displayName}</div>}
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{a.metadata.namespace}</Td>
          <Td>
            {a.spec.unit ? (
              <IntentLink href={resourceHref('Unit', a.spec.unit, a.metadata.namespace)} className="text-slate-700 hover:underline">
                {a.spec.unit}
              </IntentLink>
            ) : (
              <span className="text-slate-400">—</span>
            )}
          </Td>
          <Td className="max-w-72 truncate font-mono text-xs text-slate-600" title={a.spec.image}>
            {imageName(a.spec.image) ?? <span className="text-slate-400">—</span>}
          </Td>
          <Td className="font-mono text-xs text-slate-600" title={a.status?.imageDigest ?? undefined}>
            {shortDigest(a.status?.imageDigest)}
          </Td>
          <Td className="text-right tabular-nums text-slate-700">{a.status?.imageTools?.count ?? 0}</Td>
        </>
      )}
    />
  )
}
