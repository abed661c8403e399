import type { Metadata } from 'next'
import { ConnectorDetail } from '@/components/connectors/connector-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Connector' }

export default async function ConnectorPage({ params, searchParams }: Props) {
  const { id } = await params
  return <ConnectorDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
