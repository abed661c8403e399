import type { Metadata } from 'next'
import { NotAllowed } from '@/components/access/not-allowed'
import { ApplyForm } from '@/components/apply/apply-form'
import { PageHeader } from '@/components/ui/page-header'
import { pageAllows } from '@/lib/sign-in/page-caller'
import { applyDraftOf } from '@/lib/manifests/apply-draft'
import { manifestKindSchemas } from '@/lib/manifests/manifest-json-schemas'
import { firstParam, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Apply' }

export default async function ApplyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor, allowed } = await pageAllows('write')
  // ?draft=<url-encoded YAML>: a fix drafted elsewhere (the agent page's "why not"), to review and apply.
  const draft = applyDraftOf(firstParam(await searchParams, 'draft'))
  return (
    <>
      <PageHeader title="Apply" subtitle="Create or update resources from a manifest, the way CI and GitOps do." />
      {allowed ? (
        <ApplyForm kinds={manifestKindSchemas()} draft={draft} />
      ) : (
        <NotAllowed role={actor.roles[0]} what="apply manifests" needs="operator or admin" />
      )}
    </>
  )
}
