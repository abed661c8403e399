'use client'
// Agent credentials for the gateway, across every agent, beside the API tokens: filter by state,
// agent and text; admins issue one for a picked agent (shown once) and revoke.
import { AgentCredentialsTable } from '@/components/agents/agent-credentials-table'
import { AgentPicker } from '@/components/agents/agent-picker'
import { IssueCredentialForm } from '@/components/agents/issue-credential-form'
import { Card } from '@/components/ui/card'
import { FilterBar } from '@/components/ui/filter-bar'
import { PagedList } from '@/components/ui/paged-list'
import { PageSection } from '@/components/ui/page-section'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'
import { EmptyState } from '@/components/ui/states'
import { CREDENTIAL_STATES } from '@/lib/agent-credentials/credential-view'
import type { CredentialState } from '@/lib/client/agent-credentials-api'
import { useAllAgentCredentials } from '@/lib/client/agent-credentials-hooks'
import { useUrlFilters } from '@/lib/client/use-url-filters'
import { useCan } from './caller-context'

const KEYS = ['status', 'agent', 'q'] as const
export type AgentCredentialFilters = Partial<Record<(typeof KEYS)[number], string>>

export function AgentCredentialsSection({ initial }: { initial: AgentCredentialFilters }) {
  const canIssue = useCan('admin')
  const { filters, set, reset, active } = useUrlFilters(KEYS, initial)
  const status = (CREDENTIAL_STATES as readonly string[]).includes(filters.status) ? (filters.status as CredentialState) : undefined
  const list = useAllAgentCredentials({ status, agent: filters.agent, q: filters.q })
  return (
    <PageSection title="Agent credentials">
      {canIssue && (
        <Card title="Issue an agent credential" description="A bearer token (tra_…) an agent presents to the gateway at /mcp, for that agent only.">
          <IssueCredentialForm />
        </Card>
      )}
      <Card
        title="All agent credentials"
        description={
          list.isSuccess
            ? `${list.total} credential${list.total === 1 ? '' : 's'}${active ? ' match these filters' : ''}. Revoked ones are refused by the gateway within seconds.`
            : undefined
        }
        bodyClassName=""
      >
        <FilterBar onReset={active ? reset : undefined}>
          <Select
            label="Status"
            value={filters.status}
            onChange={(v) => set('status', v)}
            options={CREDENTIAL_STATES.map((s) => ({ value: s, label: s }))}
            allLabel="any status"
          />
          <AgentPicker label="Agent" value={filters.agent} onChange={(v) => set('agent', v)} className="w-56" />
          <SearchInput label="Search" value={filters.q} onChange={(v) => set('q', v.trim())} placeholder="name, creator or agent" />
        </FilterBar>
        <PagedList
          list={list}
          loadingLabel="Loading agent credentials…"
          errorTitle="These filters cannot be used"
          empty={
            <EmptyState title={active ? 'No agent credentials match these filters' : 'No agent credentials yet'}>
              {active ? null : 'Without one, an agent cannot call the gateway.'}
            </EmptyState>
          }
        >
          {(credentials) => <AgentCredentialsTable credentials={credentials} showAgent />}
        </PagedList>
      </Card>
    </PageSection>
  )
}
