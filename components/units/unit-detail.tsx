'use client'
import { IntrospectionSection } from '@/components/discovery/introspection-section'
import { EffectiveToolsPanel } from '@/components/effective-tools/effective-tools-panel'
import { ConnectorLinks, GrantLinks, Toggles, UnitLink } from '@/components/resources/bindings'
import { ManifestCard } from '@/components/resources/manifest-card'
import { imageDefinitions, labelsDefinition, namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { CallStatsPanel } from '@/components/stats/call-stats-panel'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { PageSection } from '@/components/ui/page-section'
import type { UnitSpec } from '@/lib/manifests/specs/fleet'
import type { FleetStatus, Resource } from '@/lib/client/api'
import { digestOfImage } from '@/lib/client/format'
import { UnitMembers } from './unit-members'

type Unit = Resource<UnitSpec, FleetStatus>

export function UnitDetail({ id, namespace }: { id: string; namespace?: string }) {
  return (
    <ResourceDetail<Unit> kind="Unit" id={id} namespace={namespace} subtitle={(unit) => unit.spec.displayName ?? unit.spec.description} loose>
      {(unit) => {
        const { name, namespace: ns } = unit.metadata
        const spec = unit.spec
        const pinned = digestOfImage(spec.image)
        return (
          <>
            <Card>
              <DefinitionList
                columns={3}
                items={[
                  namespaceDefinition(unit.metadata),
                  ['Parent', <UnitLink key="p" name={spec.parent} namespace={ns} none="none (top level)" />],
                  ...imageDefinitions(spec.image),
                  ['Endpoint', spec.endpoint ? <span className="break-all font-mono text-xs">{spec.endpoint}</span> : null],
                  ['Connectors', <ConnectorLinks key="c" slugs={spec.connectors} />],
                  ['Grants', <GrantLinks key="g" grants={spec.grants} namespace={ns} />],
                  ['Toggles', <Toggles key="t" toggles={spec.toggles} />],
                  labelsDefinition(unit.metadata),
                  updatedDefinition(unit.metadata),
                ]}
              />
              <p className="mt-3 text-xs text-slate-500">Connectors, grants and toggles set here apply to every sub-unit and agent below this unit.</p>
            </Card>
            <UnitMembers name={name} namespace={ns} />
            <CallStatsPanel subject={{ dimension: 'unit', id: unit.id }} title="Calls of this unit's agents and of its sub-units' agents, last 7 days" />
            <PageSection title="Effective tools">
              <EffectiveToolsPanel
                plural="units"
                id={id}
                namespace={namespace}
                subjectNamespace={ns}
                imageTools={unit.status?.imageTools}
                pinnedDigest={pinned}
                showImageSection={Boolean(spec.image) || (unit.status?.imageTools?.count ?? 0) > 0}
                introspection={
                  // Only a unit that runs an image of its own at a known address can be introspected.
                  spec.image && spec.endpoint ? <IntrospectionSection plural="units" kind="Unit" subjectId={unit.id} endpoint={spec.endpoint} /> : undefined
                }
              />
            </PageSection>
            <ManifestCard resource={unit} />
          </>
        )
      }}
    </ResourceDetail>
  )
}
