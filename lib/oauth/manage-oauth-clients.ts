// OAuth clients of the MCP authorization server, as admins manage them: each one is bound to one
// Agent, whose tools every token of the client may call. An admin registers a client for an agent
// (authorization code with PKCE for a person's MCP client, or client credentials for a workload, its
// secret shown once), lists and revokes them (revoking ends every token of the client at once), and
// chooses the agents dynamically registered clients may be bound to. Every change is audited.
import 'server-only'
import { randomBytes } from 'node:crypto'
import { forgetAgentCredentials } from '@/lib/auth/agent-identity-cache'
import { type AuditActor, recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { Row } from '@/lib/resources/kind-adapters'
import { getRow } from '@/lib/resources/resource-store'
import { sealClientSecret } from './oauth-secrets'
import { MCP_SCOPE, OAUTH_PREFIXES, OAUTH_SCOPES } from './oauth-settings'

export type OAuthClientKind = 'authorization_code' | 'client_credentials'

export interface OAuthClientView {
  clientId: string
  name: string
  kind: OAuthClientKind
  /** How it was registered: by an admin, or by itself (dynamic registration, bound at a person's consent). */
  registration: 'admin' | 'dynamic'
  registeredBy: string | null
  agent: { id: string; namespace: string; name: string } | null
  redirectUris: string[]
  tokenEndpointAuthMethod: string
  disabled: boolean
  createdAt: string | null
  activeTokens: number
}

export interface NewOAuthClient {
  name: string
  /** The agent's id, or `namespace/name`. */
  agent: string
  kind: OAuthClientKind
  /** For `authorization_code`: where the client takes its code (https, or http on a loopback host). */
  redirectUris?: string[]
  /** For `client_credentials`: how it sends its secret. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post'
}

export async function findAgent(ref: string): Promise<Row> {
  const slash = ref.indexOf('/')
  return slash > 0 ? getRow('Agent', ref.slice(slash + 1), ref.slice(0, slash)) : getRow('Agent', ref)
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** OAuth 2.1 redirect URIs: https, or http on a loopback host (a native client's local listener); never a fragment. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'is not a URL'
  }
  if (url.hash) return 'must not have a fragment'
  if (url.username || url.password) return 'must not carry credentials'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return null
  return 'must be https, or http on localhost, 127.0.0.1 or [::1]'
}

export async function createOAuthClient(input: NewOAuthClient, actor: AuditActor, requestId?: string): Promise<OAuthClientView & { clientSecret?: string }> {
  const agent = await findAgent(input.agent)
  const publicClient = input.kind === 'authorization_code'
  const redirectUris = input.redirectUris ?? []
  if (publicClient && redirectUris.length === 0)
    throw new AppError('VALIDATION_FAILED', 'a client that uses the authorization code needs at least one redirect URI', [
      { field: 'redirectUris', rule: 'required', message: 'at least one redirect URI' },
    ])
  if (!publicClient && redirectUris.length > 0)
    throw new AppError('VALIDATION_FAILED', 'a client-credentials client takes no redirect URIs', [
      { field: 'redirectUris', rule: 'not-allowed', message: 'client credentials use no redirects' },
    ])
  redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri)
    if (problem)
      throw new AppError('VALIDATION_FAILED', `redirect URI ${i + 1} ${problem}`, [{ field: `redirectUris[${i}]`, rule: 'redirect-uri', message: problem }])
  })
  const clientId = randomBytes(18).toString('base64url')
  const secret = publicClient ? undefined : randomBytes(32).toString('base64url')
  const authMethod = publicClient ? 'none' : (input.tokenEndpointAuthMethod ?? 'client_secret_basic')
  await prisma.$transaction(async (tx) => {
    await tx.oauthClient.create({
      data: {
        clientId,
        clientSecret: secret ? sealClientSecret(secret) : null,
        name: input.name,
        referenceId: agent.id,
        scopes: publicClient ? [...OAUTH_SCOPES] : [MCP_SCOPE],
        clientCredentialsScopes: publicClient ? [] : [MCP_SCOPE],
        redirectUris,
        grantTypes: publicClient ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
        responseTypes: publicClient ? ['code'] : [],
        tokenEndpointAuthMethod: authMethod,
        requirePKCE: true,
        applicationType: publicClient ? 'native' : 'web',
        disabled: false,
        skipConsent: false,
      },
    })
    await tx.oAuthClientRegistration.create({ data: { clientId, registeredBy: actor.name } })
    await recordAuditEvent(
      {
        actor,
        action: 'oauth_client.created',
        kind: 'Agent',
        namespace: agent.namespace,
        resource: agent.name,
        resourceId: agent.id,
        after: { clientId, name: input.name, kind: input.kind, redirectUris, tokenEndpointAuthMethod: authMethod },
        requestId,
      },
      tx,
    )
  })
  const [view] = await clientViews({ clientId })
  return { ...view, ...(secret ? { clientSecret: `${OAUTH_PREFIXES.clientSecret}${secret}` } : {}) }
}

export async function listOAuthClients(): Promise<{
  items: OAuthClientView[]
  dynamicRegistration: Array<{ id: string; namespace: string; name: string; allowedBy: string }>
}> {
  const [items, allowed] = await Promise.all([clientViews({}), prisma.oAuthDynamicRegistration.findMany({ orderBy: { createdAt: 'asc' } })])
  const agents = await prisma.agent.findMany({ where: { id: { in: allowed.map((a) => a.agentId) } }, select: { id: true, namespace: true, name: true } })
  const byId = new Map(agents.map((a) => [a.id, a]))
  return { items, dynamicRegistration: allowed.flatMap((a) => (byId.has(a.agentId) ? [{ ...byId.get(a.agentId)!, allowedBy: a.allowedBy }] : [])) }
}

/** Disables the client and revokes every token it holds; gateways refuse them within TOOLROOM_AGENT_AUTH_CACHE_MS elsewhere. */
export async function revokeOAuthClient(clientId: string, actor: AuditActor, requestId?: string): Promise<OAuthClientView> {
  const now = new Date()
  await prisma.$transaction(async (tx) => {
    const client = await tx.oauthClient.findUnique({ where: { clientId } })
    if (!client) throw notFound(`OAuth client "${clientId.slice(0, 100)}"`)
    if (client.disabled) throw new AppError('CONFLICT', `OAuth client "${client.name ?? clientId}" was already revoked`)
    await tx.oauthClient.update({ where: { clientId }, data: { disabled: true } })
    await tx.oauthAccessToken.updateMany({ where: { clientId, revoked: null }, data: { revoked: now } })
    await tx.oauthRefreshToken.updateMany({ where: { clientId, revoked: null }, data: { revoked: now } })
    const agent = client.referenceId
      ? await tx.agent.findUnique({ where: { id: client.referenceId }, select: { id: true, namespace: true, name: true } }).catch(() => null)
      : null
    await recordAuditEvent(
      {
        actor,
        action: 'oauth_client.revoked',
        kind: 'Agent',
        namespace: agent?.namespace,
        resource: agent?.name,
        resourceId: agent?.id,
        before: { clientId, name: client.name },
        requestId,
      },
      tx,
    )
  })
  forgetAgentCredentials()
  const [view] = await clientViews({ clientId })
  return view
}

/** Lets (or stops letting) dynamically registered clients be bound to this agent at a person's consent. */
export async function setDynamicRegistration(
  agentRef: string,
  allowed: boolean,
  actor: AuditActor,
  requestId?: string,
): Promise<{ agent: { id: string; namespace: string; name: string }; allowed: boolean }> {
  const agent = await findAgent(agentRef)
  await prisma.$transaction(async (tx) => {
    const existing = await tx.oAuthDynamicRegistration.findUnique({ where: { agentId: agent.id } })
    if (allowed && !existing) await tx.oAuthDynamicRegistration.create({ data: { agentId: agent.id, allowedBy: actor.name } })
    else if (!allowed && existing) await tx.oAuthDynamicRegistration.delete({ where: { agentId: agent.id } })
    else return
    await recordAuditEvent(
      {
        actor,
        action: allowed ? 'oauth_dynamic_registration.allowed' : 'oauth_dynamic_registration.stopped',
        kind: 'Agent',
        namespace: agent.namespace,
        resource: agent.name,
        resourceId: agent.id,
        requestId,
      },
      tx,
    )
  })
  return { agent: { id: agent.id, namespace: agent.namespace, name: agent.name }, allowed }
}

/** Whether any agent accepts dynamically registered clients (else the registration endpoint stays shut). */
export async function dynamicRegistrationOpen(): Promise<boolean> {
  return (await prisma.oAuthDynamicRegistration.count()) > 0
}

async function clientViews(where: { clientId?: string }): Promise<OAuthClientView[]> {
  const clients = await prisma.oauthClient.findMany({ where, orderBy: { createdAt: 'desc' }, take: 1000 })
  if (clients.length === 0) return []
  const ids = clients.map((c) => c.clientId)
  const [registrations, agents, tokens] = await Promise.all([
    prisma.oAuthClientRegistration.findMany({ where: { clientId: { in: ids } } }),
    prisma.agent.findMany({
      where: { id: { in: clients.flatMap((c) => (c.referenceId && /^[0-9a-f-]{36}$/i.test(c.referenceId) ? [c.referenceId] : [])) } },
      select: { id: true, namespace: true, name: true },
    }),
    prisma.oauthAccessToken.groupBy({ by: ['clientId'], where: { clientId: { in: ids }, revoked: null, expiresAt: { gt: new Date() } }, _count: true }),
  ])
  const registeredBy = new Map(registrations.map((r) => [r.clientId, r.registeredBy]))
  const agentById = new Map(agents.map((a) => [a.id, a]))
  const active = new Map(tokens.map((t) => [t.clientId, t._count]))
  return clients.map((c) => ({
    clientId: c.clientId,
    name: c.name ?? c.clientId,
    kind: c.grantTypes.includes('client_credentials') ? 'client_credentials' : 'authorization_code',
    registration: registeredBy.has(c.clientId) ? 'admin' : 'dynamic',
    registeredBy: registeredBy.get(c.clientId) ?? null,
    agent: (c.referenceId && agentById.get(c.referenceId)) || null,
    redirectUris: c.redirectUris,
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod ?? 'client_secret_basic',
    disabled: Boolean(c.disabled),
    createdAt: c.createdAt?.toISOString() ?? null,
    activeTokens: active.get(c.clientId) ?? 0,
  }))
}
