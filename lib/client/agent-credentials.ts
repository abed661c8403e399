'use client'
// The portal's calls and queries for agents' gateway credentials, on an agent's page and across all
// agents on the Access tokens page. The shapes are the server's own (lib/agent-credentials).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CredentialState, CredentialView, CredentialWithAgent } from '@/lib/agent-credentials/credential-view'
import type { CredentialPage } from '@/lib/agent-credentials/list-all-agent-credentials'
import { apiFetch, qs } from './api'
import { queryKeys } from './query-keys'

export type { CredentialState, CredentialView, CredentialWithAgent }
export type IssuedCredential = CredentialView & { token: string }

/** An agent as the credential routes take it: its id, or its name with the namespace. */
export interface AgentRef {
  id: string
  namespace?: string
}

export interface CredentialFilters {
  status?: CredentialState | 'all' | ''
  agent?: string
  q?: string
}

const base = (agent: AgentRef) => `/api/v1/agents/${encodeURIComponent(agent.id)}/credentials`

export const listAgentCredentials = (agent: AgentRef) => apiFetch<{ items: CredentialView[] }>(`${base(agent)}${qs({ namespace: agent.namespace })}`)

export const listAllAgentCredentials = (filters: CredentialFilters, limit: number, cursor?: string | null) =>
  apiFetch<CredentialPage>(`/api/v1/agent-credentials${qs({ status: filters.status, agent: filters.agent, q: filters.q, limit, cursor })}`)

export const issueAgentCredential = (agent: AgentRef, input: { name: string; expiresInDays?: number | null }) =>
  apiFetch<IssuedCredential>(`${base(agent)}${qs({ namespace: agent.namespace })}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })

/** By the agent's id, which every listed credential carries, so either page can revoke. */
export const revokeAgentCredential = (credential: Pick<CredentialView, 'id' | 'agentId'>) =>
  apiFetch<CredentialView>(`/api/v1/agents/${encodeURIComponent(credential.agentId)}/credentials/${encodeURIComponent(credential.id)}/revoke`, { method: 'POST' })

export function useAgentCredentials(agent: AgentRef) {
  return useQuery({ queryKey: queryKeys.agentCredentialsOf(agent.id, agent.namespace), queryFn: () => listAgentCredentials(agent) })
}

/** Credentials across agents, newest first, with "Load more". */
export function useAllAgentCredentials(filters: CredentialFilters, pageSize = 50) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.agentCredentialList({ ...filters, limit: pageSize }),
    queryFn: ({ pageParam }) => listAllAgentCredentials(filters, pageSize, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) ?? [], total: query.data?.pages[0]?.total ?? 0 }
}

function useInvalidateCredentials() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: queryKeys.agentCredentials() })
}

export function useIssueAgentCredential() {
  const invalidate = useInvalidateCredentials()
  return useMutation({ mutationFn: ({ agent, input }: { agent: AgentRef; input: { name: string; expiresInDays?: number | null } }) => issueAgentCredential(agent, input), onSuccess: () => void invalidate() })
}

export function useRevokeAgentCredential() {
  const invalidate = useInvalidateCredentials()
  // Settled, not only succeeded: a 409 (revoked elsewhere meanwhile) also means the list is stale.
  return useMutation({ mutationFn: revokeAgentCredential, onSettled: () => void invalidate() })
}
