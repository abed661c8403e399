'use client'
import { useMayChangeKind } from '@/components/access/caller-context'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { LabelBadges } from '@/components/resources/status-badges'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
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
                [
                  'Keys',
                  <span key="k" className="font-mono text-xs">
                    {secret.spec.keys.join(', ')}
                  </span>,
                ],
                [
                  'Namespace',
                  <code key="n" className="font-mono text-xs">
                    {secret.metadata.namespace}
                  </code>,
                ],
                ['Generation', String(secret.metadata.generation)],
                ['Created', dateTime(secret.metadata.createdAt)],
                ['Updated', dateTime(secret.metadata.updatedAt)],
                [
                  'Id',
                  <code key="i" className="font-mono text-xs">
                    {secret.id}
                  </code>,
                ],
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
