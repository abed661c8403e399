// The portal's calls for an agent's gateway credentials.
import { apiFetch } from './api'
import { queryKeys } from './query-keys'

export interface AgentCredential {
  id: string
  name: string
  hint: string
  createdBy: string | null
  createdAt: string
  lastUsedAt: string | null
  expiresAt: string | null
  revokedAt: string | null
  state: 'active' | 'expired' | 'revoked'
}

const base = (id: string, namespace?: string) => `/api/v1/agents/${encodeURIComponent(id)}/credentials`
const ns = (namespace?: string) => (namespace ? `?namespace=${encodeURIComponent(namespace)}` : '')

export const credentialsKey = (id: string, namespace?: string) => [...queryKeys.detail('agents', id, namespace), 'credentials'] as const

export const listAgentCredentials = (id: string, namespace?: string) => apiFetch<{ items: AgentCredential[] }>(`${base(id)}${ns(namespace)}`)

export const createAgentCredential = (id: string, namespace: string | undefined, input: { name: string; expiresInDays?: number }) =>
  apiFetch<AgentCredential & { token: string }>(`${base(id)}${ns(namespace)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })

export const revokeAgentCredential = (id: string, namespace: string | undefined, credentialId: string) =>
  apiFetch<AgentCredential>(`${base(id)}/${encodeURIComponent(credentialId)}/revoke${ns(namespace)}`, { method: 'POST' })
