// MCP authorization's routes: the discovery documents MCP clients read (RFC 9728 protected resource
// metadata for `/mcp`, RFC 8414 authorization server metadata of better-auth's OAuth provider), the
// admin's management of OAuth clients and of the agents that accept dynamically registered ones, and
// a person's consent. The OAuth endpoints themselves (authorize, token, revoke, register) are
// better-auth's, under /api/auth/oauth2 (lib/sign-in/auth-handler.ts).
import 'server-only'
import { z } from '@/lib/http/zod'
import { auditActorOf } from '@/lib/audit/audit-actor'
import type { RouteContract } from '@/lib/http/contract'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { route } from '@/lib/http/route'
import { createOAuthClient, listOAuthClients, type OAuthClientView, revokeOAuthClient, setDynamicRegistration } from '@/lib/oauth/manage-oauth-clients'
import { decideConsent } from '@/lib/sign-in/oauth-consent'
import { protectedResourceMetadata, registerMcpResourceWhereAdminActs } from '@/lib/oauth/protected-resource'
import { authServerMetadata } from '@/lib/sign-in/auth-server-metadata'

const agentRef = z.object({ id: z.string(), namespace: z.string(), name: z.string() })
const oauthClient = z
  .object({
    clientId: z.string(),
    name: z.string(),
    kind: z.enum(['authorization_code', 'client_credentials']),
    registration: z
      .enum(['admin', 'dynamic'])
      .openapi({ description: "Registered by an admin, or by the client itself (bound to an agent at a person's consent)" }),
    registeredBy: z.string().nullable(),
    agent: agentRef
      .nullable()
      .openapi({ description: 'The agent every token of this client acts as (null: a dynamically registered client nobody has consented to yet)' }),
    redirectUris: z.array(z.string()),
    tokenEndpointAuthMethod: z.string(),
    disabled: z.boolean(),
    createdAt: z.string().nullable(),
    activeTokens: z.number().int(),
  })
  .openapi('OAuthClient') satisfies z.ZodType<OAuthClientView>

const protectedResource = z
  .object({
    resource: z.string(),
    authorization_servers: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
  })
  .openapi('OAuthProtectedResourceMetadata')

const protectedResourceContract = (path: string, operationId: string): RouteContract => ({
  method: 'GET',
  path,
  operationId,
  tags: ['MCP authorization'],
  access: 'public',
  summary: 'OAuth protected resource metadata of /mcp (RFC 9728): its identifier and authorization server',
  response: protectedResource,
})
const authServerContract = (path: string, operationId: string): RouteContract => ({
  method: 'GET',
  path,
  operationId,
  tags: ['MCP authorization'],
  access: 'public',
  summary: "OAuth authorization server metadata (RFC 8414) of better-auth's OAuth provider at /api/auth",
  response: z.record(z.string(), z.unknown()).openapi('OAuthAuthorizationServerMetadata'),
})

export const OAUTH_CONTRACTS = {
  protectedResource: protectedResourceContract('/.well-known/oauth-protected-resource', 'getOAuthProtectedResource'),
  protectedResourceMcp: protectedResourceContract('/.well-known/oauth-protected-resource/mcp', 'getOAuthProtectedResourceMcp'),
  authServer: authServerContract('/.well-known/oauth-authorization-server', 'getOAuthAuthorizationServer'),
  authServerAtBasePath: authServerContract('/.well-known/oauth-authorization-server/api/auth', 'getOAuthAuthorizationServerAtBasePath'),
  listClients: {
    method: 'GET',
    path: '/api/v1/oauth/clients',
    operationId: 'listOAuthClients',
    tags: ['MCP authorization'],
    access: 'admin',
    summary: 'OAuth clients of /mcp, each bound to one agent, and the agents that accept dynamically registered clients',
    response: z.object({ items: z.array(oauthClient), dynamicRegistration: z.array(agentRef.extend({ allowedBy: z.string() })) }),
  },
  createClient: {
    method: 'POST',
    path: '/api/v1/oauth/clients',
    operationId: 'createOAuthClient',
    tags: ['MCP authorization'],
    access: 'admin',
    summary:
      "Register an OAuth client for an agent: authorization code with PKCE (a person's MCP client) or client credentials (a workload; the secret is in this answer only)",
    body: z.strictObject({
      name: z.string().trim().min(1).max(100),
      agent: z.string().trim().min(1).max(253).openapi({ description: "The agent's id, or namespace/name" }),
      kind: z.enum(['authorization_code', 'client_credentials']),
      redirectUris: z.array(z.string().max(2000)).max(10).optional(),
      tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post']).optional(),
    }),
    maxBodyBytes: 32 * 1024,
    response: oauthClient.extend({
      clientSecret: z.string().optional().openapi({ description: 'trc_… (client credentials only): shown once, stored sealed' }),
    }),
    successStatus: 201,
  },
  revokeClient: {
    method: 'POST',
    path: '/api/v1/oauth/clients/{clientId}/revoke',
    operationId: 'revokeOAuthClient',
    tags: ['MCP authorization'],
    access: 'admin',
    summary: 'Revoke a client and every token it holds',
    params: z.object({ clientId: z.string().min(1).max(200) }),
    response: oauthClient,
  },
  setDynamicRegistration: {
    method: 'PUT',
    path: '/api/v1/oauth/dynamic-registration/{agent}',
    operationId: 'setOAuthDynamicRegistration',
    tags: ['MCP authorization'],
    access: 'admin',
    summary:
      "Let (or stop letting) dynamically registered clients be bound to this agent at a person's consent; registration is open while any agent allows it",
    params: z.object({ agent: z.string().min(1).max(253).openapi({ description: "The agent's id, or namespace/name (URL-encoded)" }) }),
    body: z.strictObject({ allowed: z.boolean() }),
    maxBodyBytes: 1024,
    response: z.object({ agent: agentRef, allowed: z.boolean() }),
  },
  consent: {
    method: 'POST',
    path: '/api/v1/oauth/consent',
    operationId: 'decideOAuthConsent',
    tags: ['MCP authorization'],
    access: 'write',
    summary: 'A signed-in person allows or denies an MCP client acting as an agent (the consent page sends this); answers where the browser goes next',
    body: z.strictObject({
      oauthQuery: z.string().min(1).max(8000).openapi({ description: "The consent page's query string, as the authorization server signed it" }),
      accept: z.boolean(),
      agent: z.string().trim().min(1).max(253).optional().openapi({ description: 'For a dynamically registered client: the agent it will act as' }),
    }),
    maxBodyBytes: 16 * 1024,
    response: z.object({ redirectTo: z.string() }),
  },
} satisfies Record<string, RouteContract>

const C = OAUTH_CONTRACTS

export const oauthRoutes = {
  protectedResource: route(C.protectedResource, async ({ request }) => protectedResourceMetadata(publicOrigin(request))),
  protectedResourceMcp: route(C.protectedResourceMcp, async ({ request }) => protectedResourceMetadata(publicOrigin(request))),
  authServer: route(C.authServer, async ({ request }) => authServerMetadata(request)),
  authServerAtBasePath: route(C.authServerAtBasePath, async ({ request }) => authServerMetadata(request)),
  listClients: route(C.listClients, async () => listOAuthClients()),
  // An admin acting at an origin makes it serve /mcp as a protected resource (lib/oauth/protected-resource.ts).
  createClient: route(C.createClient, async ({ request, body, actor, requestId }) => {
    await registerMcpResourceWhereAdminActs(request)
    return createOAuthClient(body, auditActorOf(actor), requestId)
  }),
  revokeClient: route(C.revokeClient, async ({ params, actor, requestId }) => revokeOAuthClient(params.clientId, auditActorOf(actor), requestId)),
  setDynamicRegistration: route(C.setDynamicRegistration, async ({ request, params, body, actor, requestId }) => {
    if (body.allowed) await registerMcpResourceWhereAdminActs(request)
    return setDynamicRegistration(params.agent, body.allowed, auditActorOf(actor), requestId)
  }),
  consent: route(C.consent, async ({ request, body, actor, requestId }) => decideConsent(request, actor, body, requestId)),
}
