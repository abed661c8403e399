// Fetchers of agents' gateway credentials, for an agent's page and the list across all agents on the
// Access tokens page. The shapes are the routes' contracts (lib/api/agent-credential-routes.ts).
import type { z } from 'zod'
import type { AGENT_CREDENTIAL_CONTRACTS, credentialSchema, credentialWithAgentSchema } from '@/lib/api/agent-credential-routes'
import { type AnswerOf, apiFetch, type BodyOf, qs } from './api'

type C = typeof AGENT_CREDENTIAL_CONTRACTS
export type CredentialView = z.output<typeof credentialSchema>
export type CredentialState = CredentialView['state']
export type CredentialWithAgent = z.output<typeof credentialWithAgentSchema>
export type IssuedCredential = AnswerOf<C['createCredential']>

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

export const listAgentCredentials = (agent: AgentRef) => apiFetch<AnswerOf<C['listCredentials']>>(`${base(agent)}${qs({ namespace: agent.namespace })}`)

export const listAllAgentCredentials = (filters: CredentialFilters, limit: number, cursor?: string | null) =>
  apiFetch<AnswerOf<C['listAllCredentials']>>(`/api/v1/agent-credentials${qs({ status: filters.status, agent: filters.agent, q: filters.q, limit, cursor })}`)

export const issueAgentCredential = (agent: AgentRef, input: BodyOf<C['createCredential']>) =>
  apiFetch<IssuedCredential>(`${base(agent)}${qs({ namespace: agent.namespace })}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  })

/** By the agent's id, which every listed credential carries, so either page can revoke. */
export const revokeAgentCredential = (credential: Pick<CredentialView, 'id' | 'agentId'>) =>
  apiFetch<AnswerOf<C['revokeCredential']>>(
    `/api/v1/agents/${encodeURIComponent(credential.agentId)}/credentials/${encodeURIComponent(credential.id)}/revoke`,
    { method: 'POST' },
  )
