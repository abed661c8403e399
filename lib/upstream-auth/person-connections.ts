// A person's own connections (docs/design/access.md#connected-accounts): what their Connections page
// lists (every LanguageTool whose calls use each person's account, and where theirs stands) and the
// disconnect, which deletes the tokens and revokes the refresh token at the authorization server
// when it offers revocation (RFC 7009). Never a token in an answer.
import 'server-only'
import * as oauth from 'oauth4webapi'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { languageToolEndpoint, type LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import { isPerPerson } from '@/lib/manifests/specs/upstream-auth'
import { idpFetch } from '@/lib/outbound/outbound-clients'
import { openSecretValues } from '@/lib/secrets/encryption'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { personConnectableServer } from './start-upstream-connection'
import { connectionConfigKey, type ConnectionState, connectionStateOf, describePersonConnectionNeed } from './upstream-connection-rules'

const REVOCATION_TIMEOUT_MS = 10_000

export interface PersonConnectionState {
  namespace: string
  name: string
  description: string | null
  state: ConnectionState
  /** Why it needs (re)connecting, or the last refresh's failure. */
  message: string | null
  authorizationServer: string | null
  scopes: string[]
  connectedAt: string | null
  refreshedAt: string | null
}

/** Every LanguageTool that wants each person's own connection, with this user's. */
export async function listPersonConnections(userId: string): Promise<{ items: PersonConnectionState[] }> {
  const [servers, rows] = await Promise.all([
    prisma.languageTool.findMany({ select: { namespace: true, name: true, spec: true }, orderBy: [{ namespace: 'asc' }, { name: 'asc' }] }),
    prisma.personConnection.findMany({ where: { userId } }),
  ])
  const items: PersonConnectionState[] = []
  for (const server of servers) {
    const spec = server.spec as LanguageToolSpec
    const oauth2 = spec.auth?.oauth2
    if (!oauth2 || !isPerPerson(oauth2)) continue
    const row = rows.find((r) => r.namespace === server.namespace && r.name === server.name) ?? null
    // The person's page offers "Connect" for a connection never made: nothing more to say about it.
    const { state, message } = connectionStateOf(
      row,
      connectionConfigKey(languageToolEndpoint(server.name, server.namespace, spec), oauth2),
      (need, error, description) => (need === 'not_connected' ? null : describePersonConnectionNeed(need, 'you', error, description)),
    )
    items.push({
      namespace: server.namespace,
      name: server.name,
      description: spec.description ?? null,
      state,
      message,
      authorizationServer: row?.authorizationServer ?? null,
      scopes: row?.scopes ?? [],
      connectedAt: row?.connectedAt.toISOString() ?? null,
      refreshedAt: row?.refreshedAt?.toISOString() ?? null,
    })
  }
  return { items }
}

/** Deletes this user's tokens for the LanguageTool (calls for them need connecting again), and revokes the refresh token where the server allows. */
export async function disconnectPersonConnection(idOrName: string, namespace: string | undefined, userId: string, audit: AuditContext): Promise<void> {
  const server = await personConnectableServer(idOrName, namespace)
  const key = { namespace: server.namespace, name: server.name, userId }
  // Deleted first: from here no call uses it, whatever the authorization server says.
  const row = await prisma.personConnection.delete({ where: { namespace_name_userId: key } }).catch(() => null)
  if (!row) return
  const revoked = await revoke(row, server).catch((e: Error) => `not revoked: ${e.message.slice(0, 200)}`)
  await recordAuditEvent({
    ...audit,
    action: 'languagetool.person_disconnected',
    kind: 'LanguageTool',
    namespace: server.namespace,
    resource: server.name,
    resourceId: server.id,
    detail: { authorizationServer: row.authorizationServer, revocation: revoked },
  })
}

type Row = NonNullable<Awaited<ReturnType<typeof prisma.personConnection.findUnique>>>

async function revoke(row: Row, server: Awaited<ReturnType<typeof personConnectableServer>>): Promise<string> {
  const metadata = row.metadata as unknown as oauth.AuthorizationServer
  if (!metadata.revocation_endpoint || !row.ciphertext || !row.keyId) return 'not offered'
  const sealed = openSecretValues(row.ciphertext, row.keyId) as { accessToken: string; refreshToken?: string; clientSecret?: string }
  const clientSecret = server.oauth2.clientSecretRef ? await readSecretValue(server.oauth2.clientSecretRef, server.namespace) : sealed.clientSecret
  const clientAuth = clientSecret ? oauth.ClientSecretBasic(clientSecret) : oauth.None()
  const customFetch: typeof fetch = (input, init) => idpFetch()(input instanceof Request ? input.url : input, init, { timeoutMs: REVOCATION_TIMEOUT_MS })
  const options = { [oauth.customFetch]: customFetch, [oauth.allowInsecureRequests]: new URL(metadata.revocation_endpoint).protocol === 'http:' }
  // Revoking the refresh token ends the grant (RFC 7009 §2.1); the access token is revoked too for servers that keep them apart.
  for (const token of [sealed.refreshToken, sealed.accessToken]) {
    if (!token) continue
    const response = await oauth.revocationRequest(metadata, { client_id: row.clientId }, clientAuth, token, options)
    await oauth.processRevocationResponse(response)
  }
  return 'revoked'
}
