import type { Metadata } from 'next'
import { ToolDetail } from '@/components/tools/tool-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Tool' }

export default async function ToolPage({ params, searchParams }: Props) {
  const { id } = await params
  return <ToolDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
