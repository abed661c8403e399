'use client'
import { useMayChangeKind } from '@/components/access/caller-context'
import { ResourceHistory } from '@/components/audit/resource-history'
import { LabelBadges } from '@/components/resources/status-badges'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { PageHeader } from '@/components/ui/page-header'
import { QueryView } from '@/components/ui/states'
import { dateTime } from '@/lib/client/format'
import { useResource } from '@/lib/client/hooks'
import { useDocumentTitle } from '@/lib/client/use-document-title'
import { RotateSecretForm } from './rotate-secret-form'
import type { Secret } from './secrets-list'

export function SecretDetail({ id, namespace }: { id: string; namespace?: string }) {
  const query = useResource<Secret>('secrets', id, namespace)
  const canRotate = useMayChangeKind('Secret')
  useDocumentTitle(query.data && `${query.data.metadata.name} · Secret`)
  return (
    <QueryView query={query} loadingLabel="Loading secret…" errorHeader={<PageHeader crumbs={[{ label: 'Secrets', href: '/secrets' }]} title={<span className="font-mono">{id}</span>} />}>
      {(secret) => {
        const { name, namespace: ns, labels } = secret.metadata
        return (
          <>
            <PageHeader
              crumbs={[{ label: 'Secrets', href: '/secrets' }, { label: ns, href: `/secrets?namespace=${encodeURIComponent(ns)}` }]}
              title={<span className="font-mono">{name}</span>}
              subtitle="Values are encrypted at rest and never shown; tools and servers reference them by name and key."
            >
              <div className="flex flex-wrap items-center gap-1.5">
                <Badge>{secret.spec.type}</Badge>
                <LabelBadges labels={labels} />
              </div>
            </PageHeader>
            <div className="space-y-4">
              <Card>
                <DefinitionList
                  columns={3}
                  items={[
                    ['Keys', <span key="k" className="font-mono text-xs">{secret.spec.keys.join(', ')}</span>],
                    ['Namespace', <code key="n" className="font-mono text-xs">{ns}</code>],
                    ['Generation', String(secret.metadata.generation)],
                    ['Created', dateTime(secret.metadata.createdAt)],
                    ['Updated', dateTime(secret.metadata.updatedAt)],
                    ['Id', <code key="i" className="font-mono text-xs">{secret.id}</code>],
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
              <ResourceHistory kind="Secret" namespace={ns} name={name} />
            </div>
          </>
        )
      }}
    </QueryView>
  )
}
