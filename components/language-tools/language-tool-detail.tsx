'use client'
import { ManifestCard } from '@/components/resources/manifest-card'
import { HealthBadge, LabelBadges, PhaseBadge } from '@/components/resources/status-badges'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { PageHeader } from '@/components/ui/page-header'
import { QueryView } from '@/components/ui/states'
import { dateTime, timeAgo } from '@/lib/client/format'
import { useResource } from '@/lib/client/hooks'
import { useDocumentTitle } from '@/lib/client/use-document-title'
import { DiscoveredToolsTable } from './discovered-tools-table'
import { LanguageToolReferencedBy } from './referenced-by'
import type { LanguageTool } from './types'

const mono = (text: string) => <code className="break-all font-mono text-xs">{text}</code>

export function LanguageToolDetail({ id, namespace }: { id: string; namespace?: string }) {
  const query = useResource<LanguageTool>('languagetools', id, namespace)
  useDocumentTitle(query.data && `${query.data.metadata.name} · LanguageTool`)
  return (
    <QueryView
      query={query}
      loadingLabel="Loading server…"
      errorHeader={<PageHeader crumbs={[{ label: 'LanguageTools', href: '/language-tools' }]} title={<span className="font-mono">{id}</span>} />}
    >
      {(server) => {
        const { name, namespace: ns } = server.metadata
        const { spec, status } = server
        const tools = status?.toolSchemas ?? []
        return (
          <>
            <PageHeader
              crumbs={[{ label: 'LanguageTools', href: '/language-tools' }, { label: ns, href: `/language-tools?namespace=${encodeURIComponent(ns)}` }]}
              title={<span className="font-mono">{name}</span>}
              subtitle={spec.description ?? 'MCP tool server'}
            >
              <div className="flex flex-wrap items-center gap-1.5">
                <PhaseBadge phase={status?.phase} />
                <HealthBadge health={status?.health} />
                <LabelBadges labels={server.metadata.labels} />
              </div>
            </PageHeader>
            <div className="space-y-4">
              {status?.lastError && (
                <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
                  <p className="font-semibold">Last introspection failed</p>
                  <p className="mt-1 break-words font-mono text-xs">{status.lastError}</p>
                  <p className="mt-1 text-xs text-red-800">The tools below are from the last successful discovery, if any.</p>
                </div>
              )}
              <div className="grid gap-4 lg:grid-cols-2">
                <Card title="Status">
                  <DefinitionList
                    items={[
                      ['Phase', <PhaseBadge key="p" phase={status?.phase} />],
                      ['Health', <HealthBadge key="h" health={status?.health} />],
                      ['Endpoint', status?.endpoint ? mono(status.endpoint) : '—'],
                      [
                        'Last introspection',
                        status?.lastIntrospectedAt ? (
                          <span title={dateTime(status.lastIntrospectedAt)}>
                            {timeAgo(status.lastIntrospectedAt)} <span className="text-xs text-slate-500">({dateTime(status.lastIntrospectedAt)})</span>
                          </span>
                        ) : (
                          'never'
                        ),
                      ],
                    ]}
                  />
                </Card>
                <Card title="Spec">
                  <DefinitionList
                    items={[
                      ['Image', spec.image ? mono(spec.image) : null],
                      ['Explicit endpoint', spec.endpoint ? mono(spec.endpoint) : 'none (in-cluster service address)'],
                      ['Port', String(spec.port)],
                      ['Transport', spec.transport],
                      ['Deployment mode', spec.deploymentMode],
                      [
                        'Auth headers',
                        spec.authHeaders?.length
                          ? mono(spec.authHeaders.map((h) => `${h.name} ← secret ${h.secretRef.name}${h.secretRef.key ? `/${h.secretRef.key}` : ''}`).join(', '))
                          : 'none',
                      ],
                    ]}
                  />
                </Card>
              </div>
              <Card
                title={
                  <span>
                    Discovered tools <span className="font-normal text-slate-500">{tools.length}</span>
                  </span>
                }
                description="From tools/list, in server order. Annotation badges marked * are MCP defaults because the server declared no hint."
                bodyClassName=""
              >
                {tools.length > 0 ? (
                  <DiscoveredToolsTable server={name} tools={tools} />
                ) : (
                  <p className="px-4 py-4 text-sm text-slate-500">
                    {status?.lastIntrospectedAt ? 'The server lists no tools.' : 'Not introspected yet: the discovery worker has not reached this server.'}
                  </p>
                )}
              </Card>
              <div className="grid items-start gap-4 lg:grid-cols-[2fr_3fr]">
                <LanguageToolReferencedBy name={name} namespace={ns} />
                <ManifestCard resource={server} />
              </div>
            </div>
          </>
        )
      }}
    </QueryView>
  )
}
