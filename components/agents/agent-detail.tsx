'use client'
import { IntrospectionSection } from '@/components/discovery/introspection-section'
import { CallStatsPanel } from '@/components/stats/call-stats-panel'
import { LanguageToolLinks, UnitLink } from '@/components/resources/bindings'
import { ManifestCard } from '@/components/resources/manifest-card'
import { imageDefinitions, labelsDefinition, namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import type { AgentSpec } from '@/lib/manifests/specs/fleet'
import type { FleetStatus, Resource } from '@/lib/client/api'
import { digestOfImage } from '@/lib/client/format'
import { AgentImageSection } from './agent-image-section'
import { AgentToolsArea } from './agent-tools-area'
import { ConfigYamlCard } from './config-yaml-card'
import { CredentialsCard } from './credentials-card'
import { InheritedBindings } from './inherited-bindings'

type Agent = Resource<AgentSpec, FleetStatus>

export function AgentDetail({ id, namespace }: { id: string; namespace?: string }) {
  return (
    <ResourceDetail<Agent> kind="Agent" id={id} namespace={namespace} subtitle={(agent) => agent.spec.displayName ?? agent.spec.description} loose>
      {(agent) => {
        const ns = agent.metadata.namespace
        const spec = agent.spec
        const pinned = digestOfImage(spec.image)
        return (
          <>
            <AgentToolsArea id={id} namespace={namespace} subjectNamespace={ns} />
            <Card title="Configuration" bodyClassName="p-4">
              <DefinitionList
                columns={3}
                items={[
                  namespaceDefinition(agent.metadata),
                  ['Unit', <UnitLink key="u" name={spec.unit} namespace={ns} />],
                  [
                    'Endpoint (A2A)',
                    <span className="break-all font-mono text-xs" key="ep">
                      {agent.status?.endpoint ?? spec.endpoint ?? '—'}
                    </span>,
                  ],
                  ...imageDefinitions(spec.image),
                  ['LanguageTools', <LanguageToolLinks key="lt" refs={spec.languageTools} namespace={ns} />],
                  ['Connectors', <InheritedBindings key="c" field="connectors" own={spec} unit={spec.unit} namespace={ns} />],
                  ['Grants', <InheritedBindings key="g" field="grants" own={spec} unit={spec.unit} namespace={ns} />],
                  ['Toggles', <InheritedBindings key="t" field="toggles" own={spec} unit={spec.unit} namespace={ns} />],
                  labelsDefinition(agent.metadata),
                  updatedDefinition(agent.metadata),
                ]}
              />
            </Card>
            <CallStatsPanel subject={{ dimension: 'agent', id: agent.id }} callsHref={`/calls?agentId=${agent.id}`} />
            <AgentImageSection
              id={id}
              namespace={namespace}
              subjectNamespace={ns}
              imageTools={agent.status?.imageTools}
              pinnedDigest={pinned}
              introspection={<IntrospectionSection plural="agents" kind="Agent" subjectId={agent.id} endpoint={agent.status?.endpoint ?? spec.endpoint} />}
            />
            <CredentialsCard id={id} namespace={namespace} />
            <div className="grid items-start gap-4 xl:grid-cols-2">
              <ConfigYamlCard id={id} namespace={namespace} />
              <ManifestCard resource={agent} />
            </div>
          </>
        )
      }}
    </ResourceDetail>
  )
}
