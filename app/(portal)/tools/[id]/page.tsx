import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ToolDetail } from '@/components/tools/tool-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Tool' }

export default async function ToolPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('Tool', id, namespace))) notFound()
  return <ToolDetail id={id} namespace={namespace} />
}
