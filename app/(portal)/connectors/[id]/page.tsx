import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ConnectorDetail } from '@/components/connectors/connector-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Connector' }

export default async function ConnectorPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('Connector', id, namespace))) notFound()
  return <ConnectorDetail id={id} namespace={namespace} />
}
