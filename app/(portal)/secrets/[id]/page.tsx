import type { Metadata } from 'next'
import { SecretDetail } from '@/components/secrets/secret-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Secret' }

export default async function SecretPage({ params, searchParams }: Props) {
  const { id } = await params
  return <SecretDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
