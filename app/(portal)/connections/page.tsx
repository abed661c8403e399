import type { Metadata } from 'next'
import { MyConnections } from '@/components/connections/my-connections'
import { PageHeader } from '@/components/ui/page-header'
import { requirePageCaller } from '@/lib/sign-in/page-caller'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Your connections' }

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageCaller()
  const params = firstParams(await searchParams)
  return (
    <>
      <PageHeader
        title="Your connections"
        subtitle="Upstream servers that agents call with your own account: connect yours once, and calls made for you use it."
      />
      <MyConnections focus={params.languageTool ?? null} justConnected={params.connected === '1'} />
    </>
  )
}
