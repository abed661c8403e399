// An operator starts connecting a LanguageTool whose server follows MCP authorization
// (docs/design/gateway.md, "Connected upstreams"): its authorization server is discovered, a client
// is the pre-registered one or registered now (RFC 7591), and the answer is the authorization URL
// (authorization code with PKCE) the operator's browser goes to. The state and the PKCE verifier stay
// here, sealed, bound to this operator and LanguageTool, for AUTHORIZATION_TTL_MS and one callback.
import 'server-only'
import { randomBytes } from 'node:crypto'
import { registerClient, startAuthorization } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { Actor } from '@/lib/auth/access-rules'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { languageToolEndpoint, type LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import { isConnection, isPerPerson, type OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import { getRow } from '@/lib/resources/resource-store'
import { sealSecretValues } from '@/lib/secrets/encryption'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { authFetch, clip, discoverAuthorizationServer } from './discover-authorization-server'
import { AUTHORIZATION_TTL_MS, connectionConfigKey, stateHashOf } from './upstream-connection-rules'

/** Where authorization servers send the operator back: one address for every LanguageTool (the state says which). */
export const CALLBACK_PATH = '/api/v1/upstream-connections/callback'
/** Where they send a person connecting their own account back (docs/design/access.md#connected-accounts). */
export const PERSON_CALLBACK_PATH = '/api/v1/connections/callback'

/** Who connects: an operator the LanguageTool's connection, or a person their own account (`connect: perPerson`). */
export type ConnectionMode = 'operator' | 'person'

/** Who a connection is bound to: the person, or the token when no person stands behind it. */
export const operatorOf = (actor: Actor) => actor.userId ?? `${actor.kind}:${actor.id}`

export interface ConnectableServer {
  id: string
  namespace: string
  name: string
  endpoint: string
  oauth2: OAuth2Connection
}

/** The LanguageTool, if its auth is a connection an operator makes; a 422 naming spec.auth otherwise. */
export async function connectableServer(idOrName: string, namespace: string | undefined): Promise<ConnectableServer> {
  const row = await getRow('LanguageTool', idOrName, namespace)
  const spec = row.spec as LanguageToolSpec
  const oauth2 = spec.auth?.oauth2
  if (!oauth2 || !isConnection(oauth2))
    throw new AppError('VALIDATION_FAILED', `LanguageTool "${row.namespace}/${row.name}" is not connected by an operator`, [
      { field: 'spec.auth.oauth2.grantType', rule: 'authorization_code', message: 'must be authorization_code for an operator to connect the server' },
    ])
  return { id: row.id, namespace: row.namespace, name: row.name, endpoint: languageToolEndpoint(row.name, row.namespace, spec), oauth2 }
}

/** The LanguageTool, if each person connects their own account on it; a 422 naming spec.auth.oauth2.connect otherwise. */
export async function personConnectableServer(idOrName: string, namespace: string | undefined): Promise<ConnectableServer> {
  const server = await connectableServer(idOrName, namespace)
  if (!isPerPerson(server.oauth2))
    throw new AppError('VALIDATION_FAILED', `LanguageTool "${server.namespace}/${server.name}" is not connected by each person`, [
      { field: 'spec.auth.oauth2.connect', rule: 'perPerson', message: 'must be perPerson for people to connect their own accounts' },
    ])
  return server
}

/** The portal user connecting their own account; a 403 for a caller who is no person (an admin token of nobody's). */
export function personOf(actor: Actor): string {
  if (!actor.userId)
    throw new AppError('FORBIDDEN', "only a person signed in to the portal connects their own account: this credential is nobody's", [
      { field: 'authorization', rule: 'person', message: "is not a person's" },
    ])
  return actor.userId
}

export async function startUpstreamConnection(
  idOrName: string,
  namespace: string | undefined,
  origin: string,
  actor: Actor,
  audit: AuditContext,
  mode: ConnectionMode = 'operator',
): Promise<{ authorizationUrl: string; expiresAt: string }> {
  const personal = mode === 'person'
  const server = personal ? await personConnectableServer(idOrName, namespace) : await connectableServer(idOrName, namespace)
  const userId = personal ? personOf(actor) : operatorOf(actor)
  const found = await discoverAuthorizationServer(server.endpoint)
  const redirectUri = `${origin}${personal ? PERSON_CALLBACK_PATH : CALLBACK_PATH}`
  const scopes = server.oauth2.scopes ?? found.scopesSupported
  const scope = scopes.length ? scopes.join(' ') : undefined
  const client = await clientFor(server, found.issuer, found.metadata, redirectUri, scope)
  const state = randomBytes(32).toString('base64url')
  const { authorizationUrl, codeVerifier } = await startAuthorization(found.issuer, {
    metadata: found.metadata,
    clientInformation: client,
    redirectUrl: redirectUri,
    scope,
    state,
    resource: found.resource,
  }).catch((e: Error) => {
    throw new AppError('VALIDATION_FAILED', `the server cannot be connected: ${clip(e.message)}`, [
      { field: 'authorizationServerMetadata', rule: 'pkce-s256', message: clip(e.message) },
    ])
  })
  // The client id is no secret (the URL carries it): sealed values are masked in every log and error answer.
  const sealed = sealSecretValues({ codeVerifier, ...(client.client_secret ? { clientSecret: client.client_secret } : {}) })
  const expiresAt = new Date(Date.now() + AUTHORIZATION_TTL_MS)
  await prisma.$transaction([
    // What was never finished is of no use to anyone.
    prisma.upstreamAuthorization.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
    prisma.upstreamAuthorization.create({
      data: {
        stateHash: stateHashOf(state),
        userId,
        personal,
        namespace: server.namespace,
        name: server.name,
        configKey: connectionConfigKey(server.endpoint, server.oauth2),
        authorizationServer: found.issuer,
        metadata: found.metadata as object,
        resource: found.resource,
        redirectUri,
        clientId: client.client_id,
        ciphertext: sealed.ciphertext,
        keyId: sealed.keyId,
        expiresAt,
      },
    }),
  ])
  await recordAuditEvent({
    ...audit,
    action: personal ? 'languagetool.person_connection_started' : 'languagetool.connection_started',
    kind: 'LanguageTool',
    namespace: server.namespace,
    resource: server.name,
    resourceId: server.id,
    detail: { authorizationServer: found.issuer },
  })
  return { authorizationUrl: authorizationUrl.href, expiresAt: expiresAt.toISOString() }
}

/** The pre-registered client (its secret read from its Secret), or one registered now. */
async function clientFor(
  server: ConnectableServer,
  issuer: string,
  metadata: Parameters<typeof registerClient>[1]['metadata'],
  redirectUri: string,
  scope: string | undefined,
): Promise<OAuthClientInformationMixed> {
  if (server.oauth2.clientId) {
    const secret = server.oauth2.clientSecretRef ? await readSecretValue(server.oauth2.clientSecretRef, server.namespace) : undefined
    return { client_id: server.oauth2.clientId, ...(secret ? { client_secret: secret } : {}) }
  }
  if (!metadata?.registration_endpoint)
    throw new AppError('VALIDATION_FAILED', `the authorization server ${issuer} offers no dynamic client registration: set spec.auth.oauth2.clientId`, [
      { field: 'spec.auth.oauth2.clientId', rule: 'required', message: 'is required: the authorization server offers no dynamic client registration' },
    ])
  try {
    return await registerClient(issuer, {
      metadata,
      clientMetadata: {
        client_name: 'Toolroom',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      scope,
      fetchFn: authFetch,
    })
  } catch (e) {
    throw new AppError('VALIDATION_FAILED', `the authorization server ${issuer} refused to register Toolroom as a client: ${clip((e as Error).message)}`, [
      { field: 'spec.auth.oauth2.clientId', rule: 'registration', message: clip((e as Error).message) },
    ])
  }
}
