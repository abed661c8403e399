import type { Metadata } from 'next'
import { UnitDetail } from '@/components/units/unit-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Unit' }

export default async function UnitPage({ params, searchParams }: Props) {
  const { id } = await params
  return <UnitDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
