import type { Metadata } from 'next'
import { NotAllowed } from '@/components/access/not-allowed'
import { ApplyForm } from '@/components/apply/apply-form'
import { PageHeader } from '@/components/ui/page-header'
import { pageAllows } from '@/lib/auth/page-caller'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Apply' }

export default async function ApplyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor, allowed } = await pageAllows('write')
  // ?draft=<url-encoded YAML>: a fix drafted elsewhere (the agent page's "why not"), to review and apply.
  const draft = firstParam(await searchParams, 'draft')
  return (
    <>
      <PageHeader title="Apply" subtitle="Create or update resources from a manifest, the way CI and GitOps do." />
      {allowed ? <ApplyForm initialText={draft} /> : <NotAllowed role={actor.roles[0]} what="apply manifests" needs="operator or admin" />}
    </>
  )
}
