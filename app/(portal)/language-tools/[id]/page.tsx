import type { Metadata } from 'next'
import { LanguageToolDetail } from '@/components/language-tools/language-tool-detail'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }

export const metadata: Metadata = { title: 'LanguageTool' }

export default async function LanguageToolPage({ params, searchParams }: Props) {
  const { id } = await params
  return <LanguageToolDetail id={decodeURIComponent(id)} namespace={firstParam(await searchParams, 'namespace')} />
}
