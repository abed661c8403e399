'use client'
// The portal's calls for MCP authorization's OAuth clients (admins): list, register, revoke, and the
// agents that accept dynamically registered clients. The shapes are the server's (lib/oauth).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { NewOAuthClient, OAuthClientView } from '@/lib/oauth/manage-oauth-clients'
import { apiFetch } from './api'

export type { NewOAuthClient, OAuthClientView }
export interface OAuthClientList {
  items: OAuthClientView[]
  dynamicRegistration: Array<{ id: string; namespace: string; name: string; allowedBy: string }>
}

const KEY = ['oauth-clients'] as const
const json = (body: unknown): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

export function useOAuthClients() {
  return useQuery({ queryKey: KEY, queryFn: () => apiFetch<OAuthClientList>('/api/v1/oauth/clients') })
}

function useInvalidate() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: KEY })
}

export function useRegisterOAuthClient() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (input: NewOAuthClient) => apiFetch<OAuthClientView & { clientSecret?: string }>('/api/v1/oauth/clients', { method: 'POST', ...json(input) }),
    onSuccess: invalidate,
  })
}

export function useRevokeOAuthClient() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (clientId: string) => apiFetch<OAuthClientView>(`/api/v1/oauth/clients/${encodeURIComponent(clientId)}/revoke`, { method: 'POST' }),
    onSuccess: invalidate,
  })
}

export function useSetDynamicRegistration() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ agent, allowed }: { agent: string; allowed: boolean }) =>
      apiFetch<{ allowed: boolean }>(`/api/v1/oauth/dynamic-registration/${encodeURIComponent(agent)}`, { method: 'PUT', ...json({ allowed }) }),
    onSuccess: invalidate,
  })
}
