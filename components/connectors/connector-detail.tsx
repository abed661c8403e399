'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { ResourceHistory } from '@/components/audit/resource-history'
import { ManifestCard } from '@/components/resources/manifest-card'
import { LabelBadges } from '@/components/resources/status-badges'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { PageHeader } from '@/components/ui/page-header'
import { QueryView } from '@/components/ui/states'
import { dateTime } from '@/lib/client/format'
import { useResource } from '@/lib/client/hooks'
import { refHref } from '@/lib/client/links'
import { useDocumentTitle } from '@/lib/client/use-document-title'
import { ConnectorBindings } from './connector-bindings'
import { ConnectorServerTools, ConnectorToolList } from './connector-tools'
import type { Connector } from './connectors-list'

export function ConnectorDetail({ id, namespace }: { id: string; namespace?: string }) {
  const query = useResource<Connector>('connectors', id, namespace)
  useDocumentTitle(query.data && `${query.data.metadata.name} · Connector`)
  return (
    <QueryView
      query={query}
      loadingLabel="Loading connector…"
      errorHeader={<PageHeader crumbs={[{ label: 'Connectors', href: '/connectors' }]} title={<span className="font-mono">{id}</span>} />}
    >
      {(connector) => {
        const { name: slug, namespace: ns } = connector.metadata
        const spec = connector.spec
        return (
          <>
            <PageHeader
              crumbs={[{ label: 'Connectors', href: '/connectors' }, { label: ns, href: `/connectors?namespace=${encodeURIComponent(ns)}` }]}
              title={
                <span>
                  <span className="font-mono">{slug}</span>
                  {spec.displayName && <span className="ml-2 text-base font-normal text-slate-500">{spec.displayName}</span>}
                </span>
              }
              subtitle={spec.description}
            />
            <div className="space-y-4">
              <Card>
                <DefinitionList
                  columns={3}
                  items={[
                    ['Reserved tool namespace', <code key="s" className="font-mono text-xs">{slug}.*</code>],
                    ['Namespace', <code key="n" className="font-mono text-xs">{ns}</code>],
                    [
                      'MCP server',
                      spec.languageTool ? (
                        <IntentLink href={refHref('LanguageTool', spec.languageTool, ns)} className="font-mono text-xs text-sky-800 hover:underline">
                          {spec.languageTool}
                        </IntentLink>
                      ) : (
                        'none'
                      ),
                    ],
                    ['Labels', Object.keys(connector.metadata.labels).length ? <LabelBadges labels={connector.metadata.labels} /> : null],
                    ['Updated', `${dateTime(connector.metadata.updatedAt)} (generation ${connector.metadata.generation})`],
                  ]}
                />
              </Card>
              {spec.languageTool && <ConnectorServerTools slug={slug} serverRef={spec.languageTool} namespace={ns} />}
              {spec.tools && spec.tools.length > 0 && <ConnectorToolList slug={slug} names={spec.tools} namespace={ns} />}
              <div className="grid items-start gap-4 lg:grid-cols-2">
                <ConnectorBindings slug={slug} />
                <ManifestCard resource={connector} />
              </div>
              <ResourceHistory kind="Connector" namespace={ns} name={slug} />
            </div>
          </>
        )
      }}
    </QueryView>
  )
}
