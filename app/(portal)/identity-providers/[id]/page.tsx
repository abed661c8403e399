import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { IdentityProviderDetail } from '@/components/identity-providers/identity-provider-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'Identity provider' }

export default async function IdentityProviderPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('IdentityProvider', id, namespace))) notFound()
  return <IdentityProviderDetail id={id} namespace={namespace} />
}
