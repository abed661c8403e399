import type { Metadata } from 'next'
import { CallsExplorer } from '@/components/calls/calls-explorer'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Calls' }

export default async function CallsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader
        title="Calls"
        subtitle="Every tool call agents made through the gateway, newest first. Arguments and results are shown as stored: redacted as each tool's observability settings say."
      />
      <CallsExplorer initial={firstParams(await searchParams)} />
    </>
  )
}
