import type { Metadata } from 'next'
import { AgentsList } from '@/components/agents/agents-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Agents' }

export default async function AgentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Agents" subtitle="Agent definitions and the units they belong to." />
      <AgentsList initial={firstParams(await searchParams)} />
    </>
  )
}
