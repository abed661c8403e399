// The access token of a connected upstream (docs/design/gateway.md, "Connected upstreams"): read from
// the sealed UpstreamConnection row, and when it is due, replaced with the refresh token (the MCP
// SDK's refreshAuthorization). A refresh holds a PostgreSQL advisory lock on the connection, so
// processes that need one at the same moment refresh once between them, and a rotated refresh token
// is stored before anyone else may use the old one; within a process, concurrent callers share one
// attempt. The row is read on every call, so a disconnect or a reconnect holds in every process at once.
import 'server-only'
import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { AuthorizationServerMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { prisma } from '@/lib/db'
import type { OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { lockForTransaction } from '@/lib/sql'
import { authFetch, clip } from './discover-authorization-server'
import { connectionConfigKey, REFUSALS_NEEDING_RECONNECT, UpstreamConnectionNeeded } from './upstream-connection-rules'
import { tokenTimes, UpstreamTokenError } from './upstream-token-rules'

const LOCK_PREFIX = 'toolroom.upstream-connection:'
const inFlight = new Map<string, Promise<string>>()

export interface ConnectedServer {
  namespace: string
  name: string
  endpoint: string
  oauth2: OAuth2Connection
}

type Tx = Pick<typeof prisma, 'upstreamConnection' | 'personConnection'>
/** What refreshing reads and writes of a connection row: the same in both tables. */
type Row = Pick<
  NonNullable<Awaited<ReturnType<typeof prisma.upstreamConnection.findUnique>>>,
  'id' | 'configKey' | 'authorizationServer' | 'metadata' | 'resource' | 'clientId' | 'ciphertext' | 'keyId' | 'refreshAt' | 'error' | 'errorDescription'
>
type RowUpdate = Parameters<typeof prisma.personConnection.update>[0]['data'] & Parameters<typeof prisma.upstreamConnection.update>[0]['data']

/** Where a connection's row lives: the operator's (UpstreamConnection) or a person's own (PersonConnection). */
export interface ConnectionStore {
  /** Names the connection for the advisory lock and the in-process single flight. */
  key: string
  find(db: Tx): Promise<Row | null>
  update(db: Tx, id: string, data: RowUpdate): Promise<unknown>
}

const operatorStore = (server: ConnectedServer): ConnectionStore => ({
  key: `${server.namespace}/${server.name}`,
  find: (db) => db.upstreamConnection.findUnique({ where: { namespace_name: { namespace: server.namespace, name: server.name } } }),
  update: (db, id, data) => db.upstreamConnection.update({ where: { id }, data }),
})

/**
 * The bearer token for the server. Throws UpstreamConnectionNeeded (not connected, connected for
 * another configuration, or its refresh token refused: the operator acts) or UpstreamTokenError (the
 * authorization server could not be asked: the next call asks again). `outcomeChanged` runs when a
 * refresh's outcome differs from the last one stored.
 */
export function getConnectionToken(server: ConnectedServer, outcomeChanged: () => Promise<void> = async () => {}): Promise<string> {
  return getStoredConnectionToken(server, operatorStore(server), outcomeChanged)
}

/** The same for the connection `store` holds (a person's own: ./get-person-connection-token.ts). */
export async function getStoredConnectionToken(
  server: ConnectedServer,
  store: ConnectionStore,
  outcomeChanged: () => Promise<void> = async () => {},
): Promise<string> {
  const row = await usableRow(prisma, server, store)
  if (row.refreshAt && row.refreshAt.getTime() > Date.now()) {
    const open = openRow(row)
    if (open) return open.accessToken
  }
  let pending = inFlight.get(store.key)
  if (!pending) {
    pending = refresh(server, store, outcomeChanged).finally(() => inFlight.delete(store.key))
    inFlight.set(store.key, pending)
  }
  return pending
}

async function usableRow(db: Tx, server: ConnectedServer, store: ConnectionStore): Promise<Row> {
  const row = await store.find(db)
  if (!row) throw new UpstreamConnectionNeeded('not_connected')
  if (row.configKey !== connectionConfigKey(server.endpoint, server.oauth2)) throw new UpstreamConnectionNeeded('changed')
  if (!row.ciphertext || !row.keyId) throw new UpstreamConnectionNeeded('reconnect', row.error, row.errorDescription)
  return row
}

interface Sealed {
  accessToken: string
  refreshToken?: string
  /** A dynamically registered client's; a pre-registered client's stays in its Secret. */
  clientSecret?: string
}

function openRow(row: Row): Sealed | null {
  try {
    return openSecretValues(row.ciphertext!, row.keyId!) as unknown as Sealed
  } catch {
    // Sealed under a key this process no longer has (a rotated TOOLROOM_SECRET_KEY).
    return null
  }
}

/** The row's sealed part and times for tokens just issued. */
export function sealedTokens(tokens: OAuthTokens, clientSecret: string | undefined, issuedAt: number) {
  const sealed = sealSecretValues({
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    ...(clientSecret ? { clientSecret } : {}),
  })
  return { ciphertext: sealed.ciphertext, keyId: sealed.keyId, ...tokenTimes(issuedAt, tokens.expires_in) }
}

async function refresh(server: ConnectedServer, store: ConnectionStore, outcomeChanged: () => Promise<void>): Promise<string> {
  const outcome = await prisma.$transaction(
    async (tx) => {
      await lockForTransaction(tx, LOCK_PREFIX + store.key)
      // Whoever held the lock before us may have just refreshed (and rotated the refresh token).
      const row = await usableRow(tx, server, store)
      const held = openRow(row)
      if (held && row.refreshAt && row.refreshAt.getTime() > Date.now()) return { token: held.accessToken, changed: false }
      if (!held?.refreshToken) {
        await store.update(tx, row.id, {
          ciphertext: null,
          keyId: null,
          error: 'no_refresh_token',
          errorDescription: null,
          failedAt: new Date(),
          updatedAt: new Date(),
        })
        return { failure: new UpstreamConnectionNeeded('reconnect', 'no_refresh_token'), changed: true }
      }
      const clientSecret = server.oauth2.clientSecretRef ? await readSecretValue(server.oauth2.clientSecretRef, server.namespace) : held.clientSecret
      const issuedAt = Date.now()
      try {
        const tokens = await refreshAuthorization(row.authorizationServer, {
          metadata: row.metadata as unknown as AuthorizationServerMetadata,
          clientInformation: { client_id: row.clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) },
          refreshToken: held.refreshToken,
          ...(row.resource ? { resource: row.resource } : {}),
          fetchFn: authFetch,
        })
        if (tokens.token_type.toLowerCase() !== 'bearer')
          throw new UpstreamTokenError('invalid_response', `token_type "${clip(tokens.token_type)}" is not Bearer`, row.authorizationServer)
        await store.update(tx, row.id, {
          ...sealedTokens(tokens, held.clientSecret, issuedAt),
          ...(tokens.scope ? { scopes: tokens.scope.split(' ').filter(Boolean) } : {}),
          refreshedAt: new Date(),
          error: null,
          errorDescription: null,
          failedAt: null,
          updatedAt: new Date(),
        })
        return { token: tokens.access_token, changed: row.error !== null }
      } catch (e) {
        const failure = refreshFailure(e, row.authorizationServer)
        if (failure instanceof UpstreamConnectionNeeded) {
          // The grant is gone: the tokens with it are dropped, and the condition says reconnect.
          await store.update(tx, row.id, {
            ciphertext: null,
            keyId: null,
            error: failure.error,
            errorDescription: failure.description,
            failedAt: new Date(),
            updatedAt: new Date(),
          })
        } else {
          // Not the grant's fault (unreachable, a server error): the refresh token is kept for the next call.
          await store.update(tx, row.id, { error: failure.error, errorDescription: failure.description, failedAt: new Date(), updatedAt: new Date() })
        }
        return { failure, changed: row.error !== failure.error }
      }
    },
    { maxWait: 10_000, timeout: 40_000 },
  )
  if (outcome.changed) await outcomeChanged()
  if ('failure' in outcome) throw outcome.failure
  return outcome.token
}

function refreshFailure(e: unknown, server: string): UpstreamConnectionNeeded | UpstreamTokenError {
  if (e instanceof UpstreamTokenError) return e
  if (e instanceof OAuthError) {
    const description = e.message ? clip(e.message) : null
    if (REFUSALS_NEEDING_RECONNECT.has(e.errorCode)) return new UpstreamConnectionNeeded('reconnect', e.errorCode, description)
    return new UpstreamTokenError(e.errorCode, description, server)
  }
  const outbound = outboundErrorOf(e)
  if (outbound) return new UpstreamTokenError(outbound.failure === 'refused' ? 'refused_by_policy' : 'unreachable', outbound.message, server)
  if (e instanceof TypeError) return new UpstreamTokenError('unreachable', clip(e.message), server)
  return new UpstreamTokenError('invalid_response', clip((e as Error).message ?? String(e)), server)
}
