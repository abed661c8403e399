'use client'
import { useMayChangeKind } from '@/components/access/caller-context'
import { namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { LabelBadges } from '@/components/resources/status-badges'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import { dateTime } from '@/lib/client/format'
import { RotateSecretForm } from './rotate-secret-form'
import type { Secret } from './secrets-list'

export function SecretDetail({ id, namespace }: { id: string; namespace?: string }) {
  const canRotate = useMayChangeKind('Secret')
  return (
    <ResourceDetail<Secret>
      kind="Secret"
      id={id}
      namespace={namespace}
      subtitle={() => 'Values are encrypted at rest and never shown; tools and servers reference them by name and key.'}
      badges={(secret) => (
        <>
          <Badge>{secret.spec.type}</Badge>
          <LabelBadges labels={secret.metadata.labels} />
        </>
      )}
    >
      {(secret) => (
        <>
          <Card>
            <DefinitionList
              columns={3}
              items={[
                ['Keys', <Code key="k">{secret.spec.keys.join(', ')}</Code>],
                namespaceDefinition(secret.metadata),
                ['Created', dateTime(secret.metadata.createdAt)],
                updatedDefinition(secret.metadata),
                ['Id', <Code key="i">{secret.id}</Code>],
              ]}
            />
          </Card>
          {canRotate ? (
            <Card title="Rotate values" description="Replace the values in place: same name, labels and references.">
              <RotateSecretForm secret={secret} />
            </Card>
          ) : (
            <p className="text-xs text-slate-500" data-testid="admin-only-note">
              Secrets are created, rotated and deleted by admins only.
            </p>
          )}
        </>
      )}
    </ResourceDetail>
  )
}
