// The portal's calls to the People and API token endpoints.
import type { z } from 'zod'
import type { ACCESS_CONTRACTS, apiTokenSchema, userSchema } from '@/lib/api/access-routes'
import { type AnswerOf, apiFetch, apiText, type BodyOf } from './api'

export type UserView = z.output<typeof userSchema>
export type ApiTokenView = z.output<typeof apiTokenSchema>
type C = typeof ACCESS_CONTRACTS
type Body<K extends keyof C> = BodyOf<C[K]>
type Answer<K extends keyof C> = AnswerOf<C[K]>

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
})

export const listUsers = () => apiFetch<Answer<'listUsers'>>('/api/v1/users')
export const createUser = (body: Body<'createUser'>) => apiFetch<Answer<'createUser'>>('/api/v1/users', json('POST', body))
export const changeUser = (id: string, body: Body<'changeUser'>) =>
  apiFetch<Answer<'changeUser'>>(`/api/v1/users/${encodeURIComponent(id)}`, json('PATCH', body))
/** 204 No Content: read as (empty) text, which still turns problem+json answers into ApiError. */
export const removeUser = (id: string) => apiText(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'DELETE' })

export const resetUserPassword = (id: string, body: Body<'resetUserPassword'> = {}) =>
  apiFetch<Answer<'resetUserPassword'>>(`/api/v1/users/${encodeURIComponent(id)}/password`, json('POST', body))
/** The signed-in person's own password; 204, with a fresh session cookie. */
export const changeOwnPassword = (body: Body<'changeOwnPassword'>) => apiText('/api/v1/session/password', json('PUT', body))

export const listTokens = () => apiFetch<Answer<'listTokens'>>('/api/v1/tokens')
export const createToken = (body: Body<'createToken'>) => apiFetch<Answer<'createToken'>>('/api/v1/tokens', json('POST', body))
export const revokeToken = (id: string) => apiFetch<Answer<'revokeToken'>>(`/api/v1/tokens/${encodeURIComponent(id)}`, json('DELETE'))
