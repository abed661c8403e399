import type { Metadata } from 'next'
import { PolicyDefaultsCard } from '@/components/approvals/policy-defaults-card'
import { WebhooksCard } from '@/components/approvals/webhooks-card'
import { PageHeader } from '@/components/ui/page-header'

export const metadata: Metadata = { title: 'Approval settings' }

export default function ApprovalSettingsPage() {
  return (
    <>
      <PageHeader
        title="Approval settings"
        crumbs={[{ label: 'Approvals', href: '/approvals' }, { label: 'Settings' }]}
        subtitle="Which calls wait for a human, for how long, and who hears about them."
      />
      <div className="space-y-4">
        <PolicyDefaultsCard />
        <WebhooksCard />
      </div>
    </>
  )
}
