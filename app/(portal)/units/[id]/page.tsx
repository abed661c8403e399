import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { UnitDetail } from '@/components/units/unit-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Unit' }

export default async function UnitPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('Unit', id, namespace))) notFound()
  return <UnitDetail id={id} namespace={namespace} />
}
