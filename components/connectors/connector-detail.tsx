'use client'
import { Code } from '@/components/ui/code'
import { IntentLink } from '@/components/ui/intent-link'
import { ManifestCard } from '@/components/resources/manifest-card'
import { labelsDefinition, namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { refHref } from '@/lib/client/links'
import { ConnectorBindings } from './connector-bindings'
import { ConnectorServerTools, ConnectorToolList } from './connector-tools'
import type { Connector } from './connectors-list'

export function ConnectorDetail({ id, namespace }: { id: string; namespace?: string }) {
  return (
    <ResourceDetail<Connector>
      kind="Connector"
      id={id}
      namespace={namespace}
      title={(connector) => (
        <span>
          <span className="font-mono">{connector.metadata.name}</span>
          {connector.spec.displayName && <span className="ml-2 text-base font-normal text-slate-500">{connector.spec.displayName}</span>}
        </span>
      )}
      subtitle={(connector) => connector.spec.description}
    >
      {(connector) => {
        const { name: slug, namespace: ns } = connector.metadata
        const spec = connector.spec
        return (
          <>
            <Card>
              <DefinitionList
                columns={3}
                items={[
                  ['Reserved tool namespace', <Code key="s">{slug}.*</Code>],
                  namespaceDefinition(connector.metadata),
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
                  labelsDefinition(connector.metadata),
                  updatedDefinition(connector.metadata),
                ]}
              />
            </Card>
            {spec.languageTool && <ConnectorServerTools slug={slug} serverRef={spec.languageTool} namespace={ns} />}
            {spec.tools && spec.tools.length > 0 && <ConnectorToolList slug={slug} names={spec.tools} namespace={ns} />}
            <div className="grid items-start gap-4 lg:grid-cols-2">
              <ConnectorBindings slug={slug} />
              <ManifestCard resource={connector} />
            </div>
          </>
        )
      }}
    </ResourceDetail>
  )
}
