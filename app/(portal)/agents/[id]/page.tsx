import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { AgentDetail } from '@/components/agents/agent-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Agent' }

export default async function AgentPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('Agent', id, namespace))) notFound()
  return <AgentDetail id={id} namespace={namespace} />
}
