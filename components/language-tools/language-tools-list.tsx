'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { ApplyHint, NamespaceSearchList, type NamespaceSearchFilters } from '@/components/resources/resource-list-card'
import { HealthBadge, PhaseBadge } from '@/components/resources/status-badges'
import { Td } from '@/components/ui/table'
import { dateTime, timeAgo } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'
import type { LanguageTool } from './types'

export function LanguageToolsList({ initial }: { initial: NamespaceSearchFilters }) {
  return (
    <NamespaceSearchList<LanguageTool>
      plural="languagetools"
      initial={initial}
      searchPlaceholder="Server name…"
      loadingLabel="Loading MCP servers…"
      empty={{ filtered: 'No servers match these filters', unfiltered: 'No MCP servers registered yet', hint: <ApplyHint kind="LanguageTool" /> }}
      columns={[
        { label: 'Server', sort: 'name' },
        { label: 'Namespace', sort: 'namespace' },
        'Endpoint',
        'Phase',
        'Health',
        { label: 'Tools', className: 'text-right' },
        'Last introspection',
      ]}
      renderRow={(s) => (
        <>
          <Td>
            <IntentLink href={resourceHref('LanguageTool', s.id)} className="font-medium text-slate-900 hover:underline">
              {s.metadata.name}
            </IntentLink>
            <div className="text-xs text-slate-500">
              {s.spec.transport} · {s.spec.deploymentMode}
            </div>
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{s.metadata.namespace}</Td>
          <Td className="max-w-80 truncate font-mono text-xs text-slate-600" title={s.status?.endpoint}>
            {s.status?.endpoint ?? '—'}
          </Td>
          <Td>
            <PhaseBadge phase={s.status?.phase} />
          </Td>
          <Td>
            <HealthBadge health={s.status?.health} />
          </Td>
          <Td className="text-right tabular-nums text-slate-700">{s.status?.toolSchemas?.length ?? 0}</Td>
          <Td className="text-xs text-slate-600" title={dateTime(s.status?.lastIntrospectedAt)}>
            {timeAgo(s.status?.lastIntrospectedAt)}
            {s.status?.lastError && (
              <div className="line-clamp-1 max-w-56 text-red-700" title={s.status.lastError}>
                {s.status.lastError}
              </div>
            )}
          </Td>
        </>
      )}
    />
  )
}
