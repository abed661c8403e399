import type { Metadata } from 'next'
import { ToolsList } from '@/components/tools/tools-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Tools' }

export default async function ToolsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Tools" subtitle="Registered Tool resources: what they do, how risky they are, and how they have been used this week." />
      <ToolsList initial={firstParams(await searchParams)} />
    </>
  )
}
