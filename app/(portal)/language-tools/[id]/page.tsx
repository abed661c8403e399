import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { LanguageToolDetail } from '@/components/language-tools/language-tool-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'
import { resourceExists } from '@/lib/resources/resource-store'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'LanguageTool' }

export default async function LanguageToolPage({ params, searchParams }: Props) {
  const id = decodeURIComponent((await params).id)
  const namespace = firstParam(await searchParams, 'namespace')
  if (!(await resourceExists('LanguageTool', id, namespace))) notFound()
  return <LanguageToolDetail id={id} namespace={namespace} />
}
