import type { Metadata } from 'next'
import { AgentDetail } from '@/components/agents/agent-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Agent' }

export default async function AgentPage({ params, searchParams }: Props) {
  const { id } = await params
  return <AgentDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
