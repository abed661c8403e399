import type { Metadata } from 'next'
import { ApplyForm } from '@/components/apply/apply-form'
import { PageHeader } from '@/components/ui/page-header'

export const metadata: Metadata = { title: 'Apply' }

export default function ApplyPage() {
  return (
    <>
      <PageHeader title="Apply" subtitle="Create or update resources from a manifest, the way CI and GitOps do." />
      <ApplyForm />
    </>
  )
}
