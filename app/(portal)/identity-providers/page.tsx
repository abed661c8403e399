import type { Metadata } from 'next'
import { IdentityProvidersList } from '@/components/identity-providers/identity-providers-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Identity providers' }

export default async function IdentityProvidersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader
        title="Identity providers"
        subtitle="Whose people agents may act for: the issuers whose tokens Toolroom exchanges for an agent acting for a person."
      />
      <IdentityProvidersList initial={firstParams(await searchParams)} />
    </>
  )
}
