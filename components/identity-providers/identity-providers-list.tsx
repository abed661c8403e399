'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { useMayChangeKind } from '@/components/access/caller-context'
import { ApplyHint, NamespaceSearchList, type NamespaceSearchFilters } from '@/components/resources/resource-list-card'
import { Td } from '@/components/ui/table'
import type { Resource } from '@/lib/client/api'
import { timeAgo } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'
import { type IdentityProviderStatus, KeysSummary, RefusalsSummary } from './identity-provider-status'

/** An IdentityProvider's spec as the API answers it (lib/manifests/specs/identity-provider.ts, defaults filled in). */
export type IdentityProvider = Resource<
  {
    issuer: string
    jwksUri?: string
    audiences: string[]
    subjectClaim: string
    displayNameClaim: string
    emailClaim?: string
    algorithms: string[]
  },
  IdentityProviderStatus
>

export function IdentityProvidersList({ initial }: { initial: NamespaceSearchFilters }) {
  const canCreate = useMayChangeKind('IdentityProvider')
  return (
    <NamespaceSearchList<IdentityProvider>
      plural="identityproviders"
      initial={initial}
      searchPlaceholder="Name…"
      loadingLabel="Loading identity providers…"
      empty={{
        filtered: 'No identity providers match these filters',
        unfiltered: 'No identity providers yet',
        hint: canCreate ? <ApplyHint kind="IdentityProvider" verb="Create" /> : 'Admins create them.',
      }}
      columns={[
        { label: 'Name', sort: 'name' },
        { label: 'Namespace', sort: 'namespace' },
        'Issuer',
        'Audiences',
        'Keys',
        { label: 'Refused', className: 'text-right' },
        { label: 'Updated', sort: 'updated' },
      ]}
      rowAttributes={(p) => ({ 'data-testid': 'identity-provider-row', 'data-name': p.metadata.name })}
      renderRow={(p) => (
        <>
          <Td>
            <IntentLink href={resourceHref('IdentityProvider', p.id)} className="font-mono font-medium text-slate-900 hover:underline">
              {p.metadata.name}
            </IntentLink>
          </Td>
          <Td className="whitespace-nowrap font-mono text-xs text-slate-600">{p.metadata.namespace}</Td>
          <Td className="break-all font-mono text-xs text-slate-700">{p.spec.issuer}</Td>
          <Td className="break-all font-mono text-xs text-slate-700">{p.spec.audiences.join(', ')}</Td>
          <Td className="max-w-xs">
            <KeysSummary status={p.status} />
          </Td>
          <Td className="text-right tabular-nums text-slate-700">
            <RefusalsSummary status={p.status} />
          </Td>
          <Td className="whitespace-nowrap text-xs text-slate-600">{timeAgo(p.metadata.updatedAt)}</Td>
        </>
      )}
    />
  )
}
