import type { Metadata } from 'next'
import { ApiTokensSection } from '@/components/access/api-tokens-section'
import { PageHeader } from '@/components/ui/page-header'

export const metadata: Metadata = { title: 'Access tokens' }

// One section per kind of credential: API tokens for REST consumers here, agent credentials for
// the gateway beside them (added with the gateway).
export default function TokensPage() {
  return (
    <>
      <PageHeader title="Access tokens" subtitle="Credentials for machines: API tokens for REST consumers, agent credentials for the gateway." />
      <div className="space-y-8">
        <ApiTokensSection />
      </div>
    </>
  )
}
