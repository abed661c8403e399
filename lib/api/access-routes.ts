// People and API tokens: signing in and out, who am I, the People admin API, and API tokens.
import { z } from '@/lib/http/zod'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { type Role, ROLES, type Scope, SCOPES } from '@/lib/auth/access-rules'
import { changeOwnPassword } from '@/lib/sign-in/change-own-password'
import { signInWithPassword } from '@/lib/sign-in/sign-in'
import { signOut } from '@/lib/sign-in/sign-out'
import { changeUser, removeUser } from '@/lib/people/change-user'
import { createUser } from '@/lib/people/create-user'
import { listUsers } from '@/lib/people/list-users'
import { MIN_PASSWORD_LENGTH } from '@/lib/people/password'
import { resetPassword } from '@/lib/people/reset-password'
import type { UserView } from '@/lib/people/user-view'
import type { ApiTokenView } from '@/lib/tokens/api-token-view'
import { createApiToken } from '@/lib/tokens/create-api-token'
import { listApiTokens } from '@/lib/tokens/list-api-tokens'
import { revokeApiToken } from '@/lib/tokens/revoke-api-token'

const role = z.enum(ROLES as readonly [Role, ...Role[]])
const scope = z.enum(SCOPES as readonly [Scope, ...Scope[]])
const uuidParams = z.object({ id: z.string().uuid() })
const email = z.string().trim().toLowerCase().email().max(254)

export const callerSchema = z
  .object({ kind: z.string(), id: z.string(), name: z.string(), roles: z.array(role), scopes: z.array(scope).optional() })
  .openapi('Caller')
export const userSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), role, disabled: z.boolean(), createdAt: z.string(), signIn: z.array(z.string()) })
  .openapi('User') satisfies z.ZodType<UserView>
export const apiTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    hint: z.string(),
    scopes: z.array(scope),
    owner: z.string().nullable(),
    origin: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
  })
  .openapi('ApiToken') satisfies z.ZodType<ApiTokenView>

export const ACCESS_CONTRACTS = {
  signIn: {
    method: 'POST',
    path: '/api/v1/session',
    operationId: 'signIn',
    tags: ['Access'],
    access: 'public',
    maxBodyBytes: 4096,
    summary: 'Sign in with email and password; the answer sets the session cookie. Attempts are limited per client address.',
    body: z.strictObject({ email, password: z.string().min(1).max(256) }),
    response: z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.string() }) }),
  },
  whoAmI: {
    method: 'GET',
    path: '/api/v1/session',
    operationId: 'whoAmI',
    tags: ['Access'],
    access: 'read',
    summary: 'Who the caller is: a signed-in person or an API token, with roles and scopes',
    response: callerSchema,
  },
  signOut: {
    method: 'DELETE',
    path: '/api/v1/session',
    operationId: 'signOut',
    tags: ['Access'],
    access: 'read',
    summary: 'Sign out: ends this session and clears its cookie',
    successStatus: 204,
  },
  changeOwnPassword: {
    method: 'PUT',
    path: '/api/v1/session/password',
    operationId: 'changeOwnPassword',
    tags: ['Access'],
    access: 'read',
    maxBodyBytes: 4096,
    summary:
      "Change the signed-in person's password (not through an API token); their other sessions end, this one gets a fresh cookie. Attempts are limited per client address.",
    body: z.strictObject({ currentPassword: z.string().min(1).max(256), newPassword: z.string().min(MIN_PASSWORD_LENGTH).max(256) }),
    successStatus: 204,
  },
  listUsers: {
    method: 'GET',
    path: '/api/v1/users',
    operationId: 'listUsers',
    tags: ['Access'],
    access: 'admin',
    summary: 'Everyone who can sign in, with role and state',
    response: z.object({ items: z.array(userSchema) }),
  },
  createUser: {
    method: 'POST',
    path: '/api/v1/users',
    operationId: 'createUser',
    tags: ['Access'],
    access: 'admin',
    maxBodyBytes: 8192,
    summary: 'Add a person; without a password one is generated and returned once',
    body: z.strictObject({ email, name: z.string().trim().max(200).optional(), role, password: z.string().min(MIN_PASSWORD_LENGTH).max(256).optional() }),
    response: z.object({ user: userSchema, password: z.string().optional() }),
    successStatus: 201,
  },
  changeUser: {
    method: 'PATCH',
    path: '/api/v1/users/{id}',
    operationId: 'changeUser',
    tags: ['Access'],
    access: 'admin',
    maxBodyBytes: 4096,
    summary: "Change someone's role or name, or disable them (their sessions end)",
    params: uuidParams,
    body: z.strictObject({ role: role.optional(), name: z.string().trim().min(1).max(200).optional(), disabled: z.boolean().optional() }),
    response: userSchema,
  },
  resetUserPassword: {
    method: 'POST',
    path: '/api/v1/users/{id}/password',
    operationId: 'resetUserPassword',
    tags: ['Access'],
    access: 'admin',
    maxBodyBytes: 4096,
    summary: "Set someone's password, or generate one (returned once, in this answer); all their sessions end",
    params: uuidParams,
    body: z.strictObject({ password: z.string().min(MIN_PASSWORD_LENGTH).max(256).optional() }),
    response: z.object({ password: z.string().optional() }),
  },
  removeUser: {
    method: 'DELETE',
    path: '/api/v1/users/{id}',
    operationId: 'removeUser',
    tags: ['Access'],
    access: 'admin',
    summary: 'Remove a person with their sessions and API tokens',
    params: uuidParams,
    successStatus: 204,
  },
  listTokens: {
    method: 'GET',
    path: '/api/v1/tokens',
    operationId: 'listApiTokens',
    tags: ['Access'],
    access: 'read',
    summary: "API tokens: your own, or everyone's for admins (never the token itself)",
    response: z.object({ items: z.array(apiTokenSchema) }),
  },
  createToken: {
    method: 'POST',
    path: '/api/v1/tokens',
    operationId: 'createApiToken',
    tags: ['Access'],
    access: 'read',
    maxBodyBytes: 4096,
    summary:
      'Create an API token; `token` is in this answer only. Scopes cannot exceed your own role; a token caller needs `write`, gives only scopes it holds and an expiry no later than its own.',
    body: z.strictObject({
      name: z.string().trim().min(1).max(100),
      scopes: z.array(scope).min(1).max(4),
      expiresInDays: z.number().int().min(1).max(3650).nullable().optional(),
    }),
    response: apiTokenSchema.extend({ token: z.string() }),
    successStatus: 201,
  },
  revokeToken: {
    method: 'DELETE',
    path: '/api/v1/tokens/{id}',
    operationId: 'revokeApiToken',
    tags: ['Access'],
    access: 'read',
    summary: 'Revoke an API token at once (yours, or anyone’s for admins); a token caller needs `write` and revokes only tokens within its own scopes',
    params: uuidParams,
    response: apiTokenSchema,
  },
} satisfies Record<string, RouteContract>

const C = ACCESS_CONTRACTS

export const accessRoutes = {
  signIn: route(C.signIn, async ({ body, request, requestId }) => {
    const { user, cookies } = await signInWithPassword(body.email, body.password, request, requestId)
    const response = Response.json({ user })
    for (const cookie of cookies) response.headers.append('set-cookie', cookie)
    return response
  }),
  whoAmI: route(C.whoAmI, async ({ actor }) => ({ kind: actor.kind, id: actor.id, name: actor.name, roles: actor.roles, scopes: actor.scopes })),
  signOut: route(C.signOut, async ({ actor, request, requestId }) => signOut(actor, request, requestId)),
  changeOwnPassword: route(C.changeOwnPassword, async ({ actor, body, request, requestId }) => changeOwnPassword(actor, body, request, requestId)),
  listUsers: route(C.listUsers, async () => ({ items: await listUsers() })),
  createUser: route(C.createUser, async ({ body, actor, requestId }) =>
    createUser({ email: body.email, name: body.name, role: body.role, password: body.password }, auditActorOf(actor), requestId),
  ),
  changeUser: route(C.changeUser, async ({ params, body, actor, requestId }) =>
    changeUser(params.id, { role: body.role, name: body.name, disabled: body.disabled }, auditActorOf(actor), requestId),
  ),
  resetUserPassword: route(C.resetUserPassword, async ({ params, body, actor, requestId }) =>
    resetPassword(params.id, body.password, auditActorOf(actor), requestId),
  ),
  removeUser: route(C.removeUser, async ({ params, actor, requestId }) => removeUser(params.id, auditActorOf(actor), requestId)),
  listTokens: route(C.listTokens, async ({ actor }) => ({ items: await listApiTokens(actor) })),
  createToken: route(C.createToken, async ({ body, actor, requestId }) =>
    createApiToken({ name: body.name, scopes: body.scopes, expiresInDays: body.expiresInDays }, actor, requestId),
  ),
  revokeToken: route(C.revokeToken, async ({ params, actor, requestId }) => revokeApiToken(params.id, actor, requestId)),
}
