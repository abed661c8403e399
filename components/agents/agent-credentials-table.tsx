'use client'
// Gateway credentials as a table, on an agent's page (one agent) and on the Access tokens page (every
// agent, with the agent column). Tokens are never listed: the server keeps only their hash.
import { IntentLink } from '@/components/ui/intent-link'
import { useCan } from '@/components/access/caller-context'
import { ErrorLine } from '@/components/access/error-line'
import { CredentialLifeCells, CredentialLifeHeaders } from '@/components/access/credential-life-cells'
import { RevokeButton } from '@/components/access/revoke-button'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { CredentialView, CredentialWithAgent } from '@/lib/client/agent-credentials-api'
import { useRevokeAgentCredential } from '@/lib/client/agent-credentials-hooks'
import { resourceHref } from '@/lib/client/links'

type Props = { credentials: CredentialView[]; showAgent?: false } | { credentials: CredentialWithAgent[]; showAgent: true }

export function AgentCredentialsTable({ credentials, showAgent }: Props) {
  const canRevoke = useCan('admin')
  const revoke = useRevokeAgentCredential()
  return (
    <>
      {revoke.error && (
        <div className="px-4 pb-1">
          <ErrorLine error={revoke.error} />
        </div>
      )}
      <Table>
        <THead>
          <Tr>
            {showAgent && <Th>Agent</Th>}
            <Th>Name</Th>
            <Th>Token</Th>
            <CredentialLifeHeaders />
            <Th className="text-right">{canRevoke ? 'Actions' : ''}</Th>
          </Tr>
        </THead>
        <TBody>
          {credentials.map((c) => {
            const agent = 'agent' in c ? `${c.agent.namespace}/${c.agent.name}` : undefined
            return (
              <Tr key={c.id} data-testid="agent-credential-row" data-name={c.name} data-agent={agent} data-state={c.state}>
                {agent && (
                  <Td className="font-mono text-xs">
                    <IntentLink href={resourceHref('Agent', c.agentId)} className="text-sky-800 hover:underline">
                      {agent}
                    </IntentLink>
                  </Td>
                )}
                <Td className="font-medium text-slate-900">{c.name}</Td>
                <Td className="font-mono text-xs text-slate-600">{c.hint}…</Td>
                <CredentialLifeCells credential={c} state={c.state} />
                <Td className="text-right">
                  {canRevoke && c.state === 'active' && (
                    <RevokeButton
                      confirmText={`Revoke “${c.name}”${agent ? ` of ${agent}` : ''}? The agent's calls with it are refused within seconds.`}
                      pending={revoke.isPending}
                      onRevoke={() => revoke.mutate(c)}
                    />
                  )}
                </Td>
              </Tr>
            )
          })}
        </TBody>
      </Table>
    </>
  )
}
