import type { Metadata } from 'next'
import { NotAllowed } from '@/components/access/not-allowed'
import { ApplyForm } from '@/components/apply/apply-form'
import { PageHeader } from '@/components/ui/page-header'
import { pageAllows } from '@/lib/auth/page-caller'

export const metadata: Metadata = { title: 'Apply' }

export default async function ApplyPage() {
  const { actor, allowed } = await pageAllows('write')
  return (
    <>
      <PageHeader title="Apply" subtitle="Create or update resources from a manifest, the way CI and GitOps do." />
      {allowed ? <ApplyForm /> : <NotAllowed role={actor.roles[0]} what="apply manifests" needs="operator or admin" />}
    </>
  )
}
