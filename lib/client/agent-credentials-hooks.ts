'use client'
// Queries and mutations of agents' gateway credentials. Issuing or revoking on either page
// invalidates every credential query, so the other page is never stale.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type AgentRef,
  type CredentialFilters,
  issueAgentCredential,
  listAgentCredentials,
  listAllAgentCredentials,
  revokeAgentCredential,
} from './agent-credentials-api'
import type { BodyOf } from './api'
import type { AGENT_CREDENTIAL_CONTRACTS } from '@/lib/api/agent-credential-routes'
import { useCursorPages } from './cursor-pages'
import { queryKeys } from './query-keys'

type C = typeof AGENT_CREDENTIAL_CONTRACTS

export function useAgentCredentials(agent: AgentRef) {
  return useQuery({ queryKey: queryKeys.agentCredentialsOf(agent.id, agent.namespace), queryFn: () => listAgentCredentials(agent) })
}

/** Credentials across agents, newest first, with "Load more". */
export function useAllAgentCredentials(filters: CredentialFilters, pageSize = 50) {
  const pages = useCursorPages({
    queryKey: queryKeys.agentCredentialList({ ...filters, limit: pageSize }),
    fetchPage: (cursor) => listAllAgentCredentials(filters, pageSize, cursor),
  })
  return { ...pages, total: pages.firstPage?.total ?? 0 }
}

function useInvalidateCredentials() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: queryKeys.agentCredentials() })
}

export function useIssueAgentCredential() {
  const invalidate = useInvalidateCredentials()
  return useMutation({
    mutationFn: ({ agent, input }: { agent: AgentRef; input: BodyOf<C['createCredential']> }) => issueAgentCredential(agent, input),
    onSuccess: () => void invalidate(),
  })
}

export function useRevokeAgentCredential() {
  const invalidate = useInvalidateCredentials()
  // Settled, not only succeeded: a 409 (revoked elsewhere meanwhile) also means the list is stale.
  return useMutation({ mutationFn: revokeAgentCredential, onSettled: () => void invalidate() })
}
