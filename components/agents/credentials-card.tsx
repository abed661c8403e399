'use client'
// The agent's gateway credentials: issue one (admins; its token is shown once), see when each was
// last used, revoke. The same table and form serve the Access tokens page across all agents.
import { useCan } from '@/components/access/caller-context'
import { Card } from '@/components/ui/card'
import { QueryView } from '@/components/ui/states'
import { useAgentCredentials } from '@/lib/client/agent-credentials-hooks'
import { AgentCredentialsTable } from './agent-credentials-table'
import { IssueCredentialForm } from './issue-credential-form'

export function CredentialsCard({ id, namespace }: { id: string; namespace?: string }) {
  const canIssue = useCan('admin')
  const query = useAgentCredentials({ id, namespace })
  return (
    <Card
      title="Gateway credentials"
      description="Bearer tokens this agent presents to the gateway at /mcp. A token is shown once, when it is issued."
      bodyClassName=""
    >
      {canIssue && (
        <div className="border-b border-slate-200 p-4">
          <IssueCredentialForm agent={{ id, namespace }} />
        </div>
      )}
      <QueryView
        query={query}
        isEmpty={(d) => d.items.length === 0}
        empty={<p className="px-4 py-3 text-sm text-slate-500">No credentials yet: this agent cannot call the gateway.</p>}
      >
        {({ items }) => <AgentCredentialsTable credentials={items} />}
      </QueryView>
    </Card>
  )
}
