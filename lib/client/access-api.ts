// The portal's calls to the People and API token endpoints, and their query keys.
import type { Role, Scope } from '@/lib/auth/access-rules'
import type { UserView } from '@/lib/people/user-view'
import type { ApiTokenView } from '@/lib/tokens/api-token-view'
import { apiFetch, apiText } from './api'

export type { ApiTokenView, UserView }

export const accessKeys = {
  users: ['toolroom', 'access', 'users'] as const,
  tokens: ['toolroom', 'access', 'tokens'] as const,
}

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
})

export const listUsers = () => apiFetch<{ items: UserView[] }>('/api/v1/users')
export const createUser = (body: { email: string; name?: string; role: Role; password?: string }) =>
  apiFetch<{ user: UserView; password?: string }>('/api/v1/users', json('POST', body))
export const changeUser = (id: string, body: { role?: Role; disabled?: boolean; name?: string }) => apiFetch<UserView>(`/api/v1/users/${encodeURIComponent(id)}`, json('PATCH', body))
/** 204 No Content: read as (empty) text, which still turns problem+json answers into ApiError. */
export const removeUser = (id: string) => apiText(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'DELETE' })

export const resetUserPassword = (id: string, body: { password?: string } = {}) =>
  apiFetch<{ password?: string }>(`/api/v1/users/${encodeURIComponent(id)}/password`, json('POST', body))
/** The signed-in person's own password; 204, with a fresh session cookie. */
export const changeOwnPassword = (body: { currentPassword: string; newPassword: string }) => apiText('/api/v1/session/password', json('PUT', body))

export const listTokens = () => apiFetch<{ items: ApiTokenView[] }>('/api/v1/tokens')
export const createToken = (body: { name: string; scopes: Scope[]; expiresInDays: number | null }) =>
  apiFetch<ApiTokenView & { token: string }>('/api/v1/tokens', json('POST', body))
export const revokeToken = (id: string) => apiFetch<ApiTokenView>(`/api/v1/tokens/${encodeURIComponent(id)}`, json('DELETE'))
