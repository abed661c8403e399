import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { SecretDetail } from '@/components/secrets/secret-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Secret' }

export default async function SecretPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('Secret', id, namespace))) notFound()
  return <SecretDetail id={id} namespace={namespace} />
}
