// The authorization server sends the operator's browser back (docs/design/gateway.md, "Connected
// upstreams"): the state must be one this server handed out, unexpired, unused and started by the
// same operator; it is spent before the code is exchanged (the MCP SDK's exchangeAuthorization,
// with the PKCE verifier), and the tokens are stored sealed. Discovery then runs with them.
import 'server-only'
import { exchangeAuthorization } from '@modelcontextprotocol/sdk/client/auth.js'
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { Actor } from '@/lib/auth/access-rules'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { enqueue } from '@/lib/jobs/enqueue'
import { introspectMcpServerJob } from '@/lib/jobs/job-contracts'
import { AppError } from '@/lib/errors/app-error'
import { openSecretValues } from '@/lib/secrets/encryption'
import { authFetch, clip } from './discover-authorization-server'
import { sealedTokens } from './get-connection-token'
import { type ConnectionMode, connectableServer, operatorOf, personOf } from './start-upstream-connection'
import { connectionConfigKey, stateHashOf } from './upstream-connection-rules'

export interface CallbackQuery {
  state: string
  code?: string
  iss?: string
  error?: string
  error_description?: string
}

export async function finishUpstreamConnection(
  query: CallbackQuery,
  actor: Actor,
  audit: AuditContext,
  mode: ConnectionMode = 'operator',
): Promise<{ namespace: string; name: string }> {
  const personal = mode === 'person'
  const stateHash = stateHashOf(query.state)
  const pending = await prisma.upstreamAuthorization.findUnique({ where: { stateHash } })
  // A person's state at the operator's callback (or the reverse) is no connection being made there.
  if (!pending || pending.expiresAt.getTime() <= Date.now() || pending.personal !== personal)
    throw badState('is not a connection being made: unknown, already used or expired')
  if (pending.userId !== (personal ? personOf(actor) : operatorOf(actor)))
    throw new AppError('FORBIDDEN', `this connection was started by another ${personal ? 'person' : 'operator'}: only they can finish it`, [
      { field: 'state', rule: 'same-operator', message: 'belongs to a connection another operator started' },
    ])
  // Spent before anything else happens: of two callbacks with one state, one goes on.
  const spent = await prisma.upstreamAuthorization.deleteMany({ where: { stateHash, userId: pending.userId } })
  if (spent.count !== 1) throw badState('is not a connection being made: unknown, already used or expired')
  if (query.error)
    throw new AppError(
      'VALIDATION_FAILED',
      `the authorization server did not authorize Toolroom: ${clip(query.error)}${query.error_description ? `: ${clip(query.error_description)}` : ''}`,
      [{ field: 'error', rule: 'authorization-refused', message: clip(query.error) }],
    )
  // RFC 9207: an answer naming another issuer came from another authorization server (a mix-up).
  if (query.iss !== undefined && query.iss.replace(/\/$/, '') !== pending.authorizationServer.replace(/\/$/, ''))
    throw new AppError('VALIDATION_FAILED', `the answer names the issuer "${clip(query.iss)}", not ${pending.authorizationServer} (RFC 9207)`, [
      { field: 'iss', rule: 'rfc9207-issuer', message: 'is not the authorization server the connection was started with' },
    ])
  if (!query.code) throw new AppError('BAD_REQUEST', 'the callback carries no code', [{ field: 'code', rule: 'required', message: 'is required' }])
  const server = await connectableServer(pending.name, pending.namespace)
  if (connectionConfigKey(server.endpoint, server.oauth2) !== pending.configKey)
    throw new AppError(
      'CONFLICT',
      `LanguageTool "${server.namespace}/${server.name}" changed its endpoint or OAuth client while it was being connected: connect it again`,
    )
  const sealed = openSecretValues(pending.ciphertext, pending.keyId)
  const client = { clientId: pending.clientId, ...(sealed.clientSecret ? { clientSecret: sealed.clientSecret } : {}) }
  const issuedAt = Date.now()
  let tokens
  try {
    tokens = await exchangeAuthorization(pending.authorizationServer, {
      metadata: pending.metadata as unknown as AuthorizationServerMetadata,
      clientInformation: { client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) },
      authorizationCode: query.code,
      codeVerifier: sealed.codeVerifier,
      redirectUri: pending.redirectUri,
      // As the authorization request sent it: the metadata's string, not a URL's href (which adds a slash).
      ...(pending.resource ? { resource: pending.resource } : {}),
      fetchFn: authFetch,
    })
  } catch (e) {
    const message = clip((e as Error).message ?? String(e))
    throw new AppError('VALIDATION_FAILED', `the authorization server ${pending.authorizationServer} refused the code: ${message}`, [
      { field: 'code', rule: 'token-exchange', message },
    ])
  }
  if (tokens.token_type.toLowerCase() !== 'bearer')
    throw new AppError('VALIDATION_FAILED', `the authorization server answered token_type "${clip(tokens.token_type)}", not Bearer`, [
      { field: 'code', rule: 'bearer', message: 'the token is not a bearer token' },
    ])
  const now = new Date()
  const row = {
    configKey: pending.configKey,
    authorizationServer: pending.authorizationServer,
    metadata: pending.metadata as object,
    resource: pending.resource,
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : [],
    clientId: client.clientId,
    ...sealedTokens(tokens, client.clientSecret, issuedAt),
    connectedAt: now,
    connectedBy: actor.name,
    refreshedAt: null,
    error: null,
    errorDescription: null,
    failedAt: null,
    updatedAt: now,
  }
  if (personal) {
    // Each person's own: connectedBy is the row's user.
    const { connectedBy: _, ...own } = row
    const key = { namespace: server.namespace, name: server.name, userId: pending.userId }
    await prisma.personConnection.upsert({ where: { namespace_name_userId: key }, create: { ...key, ...own }, update: own })
    await recordAuditEvent({
      ...audit,
      action: 'languagetool.person_connected',
      kind: 'LanguageTool',
      namespace: server.namespace,
      resource: server.name,
      resourceId: server.id,
      detail: { authorizationServer: pending.authorizationServer, scopes: row.scopes },
    })
    // Discovery uses the operator's connection, never a person's.
    return { namespace: server.namespace, name: server.name }
  }
  await prisma.upstreamConnection.upsert({
    where: { namespace_name: { namespace: server.namespace, name: server.name } },
    create: { namespace: server.namespace, name: server.name, ...row },
    update: row,
  })
  await recordAuditEvent({
    ...audit,
    action: 'languagetool.connected',
    kind: 'LanguageTool',
    namespace: server.namespace,
    resource: server.name,
    resourceId: server.id,
    detail: { authorizationServer: pending.authorizationServer, scopes: row.scopes },
  })
  // Discovered now with the new token; if the queue is unreachable the periodic sweep does it.
  await enqueue(introspectMcpServerJob, { id: server.id, trigger: 'manual' }).catch((e) =>
    console.error(`[upstream-auth] could not queue the discovery of ${server.namespace}/${server.name}: ${(e as Error).message}`),
  )
  return { namespace: server.namespace, name: server.name }
}

const badState = (message: string) => new AppError('BAD_REQUEST', `the state ${message}`, [{ field: 'state', rule: 'pending-connection', message }])
