import type { Metadata } from 'next'
import { AgentCredentialsSection } from '@/components/access/agent-credentials-section'
import { ApiTokensSection } from '@/components/access/api-tokens-section'
import { OAuthClientsSection } from '@/components/access/oauth-clients-section'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Access tokens' }

// One section per kind of credential: API tokens for REST consumers, agent credentials for the gateway,
// OAuth clients for MCP clients that sign in the OAuth way (admins only).
export default async function TokensPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Access tokens" subtitle="Credentials for machines: API tokens for REST consumers, agent credentials for the gateway." />
      <div className="space-y-8">
        <ApiTokensSection />
        <AgentCredentialsSection initial={firstParams(await searchParams)} />
        <OAuthClientsSection />
      </div>
    </>
  )
}
