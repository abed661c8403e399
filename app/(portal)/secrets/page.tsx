import type { Metadata } from 'next'
import { SecretsList } from '@/components/secrets/secrets-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Secrets' }

export default async function SecretsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Secrets" subtitle="Named values for tool and server credentials, encrypted at rest. Only names, types and key names are ever shown." />
      <SecretsList initial={firstParams(await searchParams)} />
    </>
  )
}
