'use client'
// An IdentityProvider: whose people agents may act for (docs/design/access.md#on-whose-behalf), its
// observed status (can its keys be had, which tokens were refused), what its subject tokens must
// carry, the claims Toolroom reads from them, and the people calls were made for over the last 7 days
// (from the statistics rollup).
import { useMayChangeKind } from '@/components/access/caller-context'
import { namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { LabelBadges, PhaseBadge } from '@/components/resources/status-badges'
import { CallsByPerson } from '@/components/stats/calls-by-person'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import { dateTime } from '@/lib/client/format'
import { IdentityProviderStatusCards } from './identity-provider-status'
import type { IdentityProvider } from './identity-providers-list'

const wrap = 'break-all font-mono text-xs'

export function IdentityProviderDetail({ id, namespace }: { id: string; namespace?: string }) {
  const canChange = useMayChangeKind('IdentityProvider')
  return (
    <ResourceDetail<IdentityProvider>
      kind="IdentityProvider"
      id={id}
      namespace={namespace}
      subtitle={() => "Agents may act for this provider's people: Toolroom's token endpoint exchanges a person's token from it (RFC 8693)."}
      badges={(idp) => (
        <>
          <PhaseBadge phase={idp.status?.phase ?? 'Pending'} why={idp.status?.conditions[0]?.message} />
          <LabelBadges labels={idp.metadata.labels} />
        </>
      )}
    >
      {(idp) => (
        <>
          <IdentityProviderStatusCards status={idp.status} />
          <Card title="Subject tokens" description="What a person's token must be before an agent may act for them.">
            <DefinitionList
              columns={2}
              items={[
                [
                  'Issuer (iss)',
                  <span key="iss" className={wrap}>
                    {idp.spec.issuer}
                  </span>,
                ],
                [
                  'Keys (JWKS)',
                  idp.spec.jwksUri ? (
                    <span key="jwks" className={wrap}>
                      {idp.spec.jwksUri}
                    </span>
                  ) : (
                    <span key="jwks" className="text-sm text-slate-700">
                      discovered from <span className={wrap}>{`${idp.spec.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`}</span>
                    </span>
                  ),
                ],
                [
                  'Audiences (aud, one of)',
                  <span key="aud" className={wrap}>
                    {idp.spec.audiences.join(', ')}
                  </span>,
                ],
                [
                  'Algorithms',
                  <span key="alg" className={wrap}>
                    {idp.spec.algorithms.join(', ')}
                  </span>,
                ],
              ]}
            />
          </Card>
          <Card title="Claims used" description="Where Toolroom reads who the person is.">
            <DefinitionList
              columns={3}
              items={[
                ['Person (subject)', <Code key="sub">{idp.spec.subjectClaim}</Code>],
                ['Name people see', <Code key="name">{idp.spec.displayNameClaim}</Code>],
                [
                  'Email',
                  idp.spec.emailClaim ? (
                    <Code key="email">{idp.spec.emailClaim}</Code>
                  ) : (
                    <span key="email" className="text-slate-600">
                      not read
                    </span>
                  ),
                ],
              ]}
            />
          </Card>
          <CallsByPerson
            issuer={idp.spec.issuer}
            limit={10}
            title="People acted for"
            description="This provider's people whom calls were made for in the last 7 days."
            emptyTitle="No calls made for its people in the last 7 days"
          />
          <Card>
            <DefinitionList
              columns={3}
              items={[
                namespaceDefinition(idp.metadata),
                ['Created', dateTime(idp.metadata.createdAt)],
                updatedDefinition(idp.metadata),
                ['Id', <Code key="i">{idp.id}</Code>],
              ]}
            />
          </Card>
          {!canChange && (
            <p className="text-xs text-slate-600" data-testid="admin-only-note">
              Identity providers are created, changed and deleted by admins only.
            </p>
          )}
        </>
      )}
    </ResourceDetail>
  )
}
