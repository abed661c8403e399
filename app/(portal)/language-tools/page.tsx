import type { Metadata } from 'next'
import { LanguageToolsList } from '@/components/language-tools/language-tools-list'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'LanguageTools' }

export default async function LanguageToolsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="LanguageTools" subtitle="MCP tool servers: where they run, whether they answer, and the tools Toolroom discovered on them." />
      <LanguageToolsList initial={firstParams(await searchParams)} />
    </>
  )
}
