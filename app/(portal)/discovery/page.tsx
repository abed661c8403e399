import type { Metadata } from 'next'
import { DiscoveryOverview } from '@/components/discovery/discovery-overview'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Discovery' }

export default async function DiscoveryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader
        title="Discovery"
        subtitle="What the discovery workers found on agent images and MCP servers: changes waiting for a decision, failed runs, and every run."
      />
      <DiscoveryOverview initial={firstParams(await searchParams)} />
    </>
  )
}
