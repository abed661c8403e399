import type { Metadata } from 'next'
import { ConnectorsList } from '@/components/connectors/connectors-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Connectors' }

export default async function ConnectorsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Connectors" subtitle="Named integrations: each slug is a reserved tool namespace, bound to units and agents." />
      <ConnectorsList initial={firstParams(await searchParams)} />
    </>
  )
}
