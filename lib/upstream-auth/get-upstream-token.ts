// Access tokens for upstreams (docs/design/gateway.md, "Upstream credentials"): the client
// credentials grant (oauth4webapi), or a person's token exchange (./exchange-for-upstream.ts), at the
// authorization server the manifest names, its metadata and token endpoint reached through the
// outbound guard. A token is fetched once and used
// until shortly before it expires: from this process's memory, else from the sealed UpstreamToken
// row another process stored. A refresh holds a PostgreSQL advisory lock on the credential, so
// replicas that need one at the same moment fetch once between them; within a process, concurrent
// callers share one attempt.
import 'server-only'
import * as oauth from 'oauth4webapi'
import { prisma } from '@/lib/db'
import type { OAuth2Client } from '@/lib/manifests/specs/upstream-auth'
import { idpFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { lockForTransaction } from '@/lib/sql'
import { upstreamTokenKey } from './upstream-token-key'
import { tokenTimes, UpstreamTokenError } from './upstream-token-rules'

/** One metadata or token request; a refresh waiting on the lock waits for at most two of these. */
const IDP_TIMEOUT_MS = 10_000
const LOCK_PREFIX = 'toolroom.upstream-token:'
/**
 * After a refusal or an unreachable server, calls fail with that answer for this long without asking
 * again: a server that is down is not asked once per call (each waiting out the timeout), nor is one
 * that refuses the client hammered with its secret.
 */
const FAILURE_HOLD_MS = 5_000

interface Held {
  token: string
  refreshAt: number
}
const memory = new Map<string, Held>()
const inFlight = new Map<string, Promise<string>>()

type Tx = Pick<typeof prisma, 'upstreamToken'>

/**
 * The bearer token for this credential: cached, or fetched (single-flight across processes). Throws
 * UpstreamTokenError. `outcomeChanged` runs when a fetch's outcome differs from the last one stored
 * (a token after a failure, or another failure): the caller's tools show it as their condition.
 */
export async function getUpstreamToken(oauth2: OAuth2Client, namespace: string, outcomeChanged: () => Promise<void>): Promise<string> {
  // A token_exchange credential's own token (its discovery lists tools as the service, for nobody) is this grant's too.
  return cachedUpstreamToken(
    upstreamTokenKey(namespace, oauth2),
    serverOf(oauth2),
    () => requestUpstreamToken(oauth2, namespace, 'client_credentials'),
    outcomeChanged,
  )
}

/** A token fetched by `fetch` and what its lifetime makes of it, or the UpstreamTokenError it threw. */
export type FetchedToken = { token: string; times: ReturnType<typeof tokenTimes> }

/**
 * The token cached under `key`, or fetched by `fetch` (single-flight across processes, its outcome
 * sealed in UpstreamToken under `key`): the one cache of upstream tokens, whichever grant gets them
 * (lib/upstream-auth/exchange-for-upstream.ts keys a person's exchanged tokens here too).
 */
export async function cachedUpstreamToken(
  key: string,
  server: string,
  fetch: () => Promise<FetchedToken>,
  outcomeChanged: () => Promise<void>,
): Promise<string> {
  const held = memory.get(key)
  if (held && Date.now() < held.refreshAt) return held.token
  let pending = inFlight.get(key)
  if (!pending) {
    pending = obtain(key, server, fetch, outcomeChanged).finally(() => inFlight.delete(key))
    inFlight.set(key, pending)
  }
  return pending
}

/** Forgets what this process holds in memory (tests; the sealed rows stay). */
export function forgetUpstreamTokens(): void {
  memory.clear()
}

async function obtain(key: string, server: string, fetch: () => Promise<FetchedToken>, outcomeChanged: () => Promise<void>): Promise<string> {
  const stored = await storedToken(prisma, key)
  if (stored) return remember(key, stored)
  const outcome = await prisma.$transaction(
    async (tx) => {
      await lockForTransaction(tx, LOCK_PREFIX + key)
      // Whoever held the lock before us may have just stored one.
      const fresh = await storedToken(tx, key)
      if (fresh) return fresh
      const before = await tx.upstreamToken.findUnique({ where: { key }, select: { error: true, errorDescription: true, failedAt: true } })
      if (before?.error && before.failedAt && Date.now() - before.failedAt.getTime() < FAILURE_HOLD_MS)
        return { failure: new UpstreamTokenError(before.error, before.errorDescription, server), changed: false }
      try {
        const fetched = await fetch()
        const sealed = sealSecretValues({ token: fetched.token })
        const row = {
          ciphertext: sealed.ciphertext,
          keyId: sealed.keyId,
          ...fetched.times,
          fetchedAt: new Date(),
          error: null,
          errorDescription: null,
          failedAt: null,
          updatedAt: new Date(),
        }
        await tx.upstreamToken.upsert({ where: { key }, create: { key, ...row }, update: row })
        return { token: fetched.token, refreshAt: fetched.times.refreshAt.getTime(), changed: !before || before.error !== null }
      } catch (e) {
        if (!(e instanceof UpstreamTokenError)) throw e
        // A failure is kept (it is the tools' condition) and the token with it is dropped: the server said no.
        const row = {
          ciphertext: null,
          keyId: null,
          expiresAt: null,
          refreshAt: null,
          error: e.error,
          errorDescription: e.description,
          failedAt: new Date(),
          updatedAt: new Date(),
        }
        await tx.upstreamToken.upsert({ where: { key }, create: { key, ...row }, update: row })
        return { failure: e, changed: before?.error !== e.error }
      }
    },
    { maxWait: IDP_TIMEOUT_MS, timeout: 4 * IDP_TIMEOUT_MS },
  )
  if ('changed' in outcome && outcome.changed) await outcomeChanged()
  if ('failure' in outcome) throw outcome.failure
  return remember(key, outcome)
}

/** Tokens held in memory at most: one per credential, and per person for exchanged ones; the rest are read from their rows again. */
const MAX_HELD = 10_000

function remember(key: string, held: Held): string {
  if (memory.size >= MAX_HELD && !memory.has(key)) memory.delete(memory.keys().next().value!)
  memory.set(key, { token: held.token, refreshAt: held.refreshAt })
  return held.token
}

async function storedToken(db: Tx, key: string): Promise<Held | null> {
  const row = await db.upstreamToken.findUnique({ where: { key } })
  if (!row?.ciphertext || !row.keyId || !row.refreshAt || row.refreshAt.getTime() <= Date.now()) return null
  try {
    return { token: openSecretValues(row.ciphertext, row.keyId).token, refreshAt: row.refreshAt.getTime() }
  } catch {
    // Sealed under a key this process no longer has (a rotated TOOLROOM_SECRET_KEY): fetched anew.
    return null
  }
}

const customFetch: typeof fetch = (input, init) => idpFetch()(input instanceof Request ? input.url : input, init, { timeoutMs: IDP_TIMEOUT_MS })

function options(url: URL) {
  // The manifest may name an http:// server, as it may an http:// endpoint: the outbound policy governs where requests go.
  return { [oauth.customFetch]: customFetch, [oauth.allowInsecureRequests]: url.protocol === 'http:' }
}

export const serverOf = (oauth2: OAuth2Client) => oauth2.issuer ?? oauth2.tokenUrl!

/**
 * One token request at the credential's authorization server with its client credentials: the
 * client credentials grant, or another (token exchange) with its own `parameters`. Scopes and the
 * resource indicator are the credential's; the answer must be a Bearer token.
 */
export async function requestUpstreamToken(
  oauth2: OAuth2Client,
  namespace: string,
  grantType: string,
  grantParameters: Record<string, string> = {},
): Promise<FetchedToken> {
  const server = serverOf(oauth2)
  let clientSecret: string
  try {
    clientSecret = await readSecretValue(oauth2.clientSecretRef, namespace)
  } catch (e) {
    throw new UpstreamTokenError('secret_unavailable', (e as Error).message, server)
  }
  const as = oauth2.issuer ? await discover(oauth2.issuer) : { issuer: new URL(oauth2.tokenUrl!).origin, token_endpoint: oauth2.tokenUrl! }
  const methods = as.token_endpoint_auth_methods_supported
  const clientAuth =
    !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
      ? oauth.ClientSecretBasic(clientSecret)
      : oauth.ClientSecretPost(clientSecret)
  const client: oauth.Client = { client_id: oauth2.clientId }
  const parameters = new URLSearchParams(grantParameters)
  if (oauth2.scopes?.length) parameters.set('scope', oauth2.scopes.join(' '))
  if (oauth2.resource) parameters.set('resource', oauth2.resource)
  const fetchedAt = Date.now()
  try {
    const response =
      grantType === 'client_credentials'
        ? await oauth.clientCredentialsGrantRequest(as, client, clientAuth, parameters, options(new URL(as.token_endpoint!)))
        : await oauth.genericTokenEndpointRequest(as, client, clientAuth, grantType, parameters, options(new URL(as.token_endpoint!)))
    const answer =
      grantType === 'client_credentials'
        ? await oauth.processClientCredentialsResponse(as, client, response)
        : await oauth.processGenericTokenEndpointResponse(as, client, response)
    if (answer.token_type.toLowerCase() !== 'bearer')
      throw new UpstreamTokenError('invalid_response', `token_type "${clip(answer.token_type)}" is not Bearer`, server)
    return { token: answer.access_token, times: tokenTimes(fetchedAt, answer.expires_in) }
  } catch (e) {
    throw tokenError(e, server)
  }
}

/** RFC 8414 metadata first, then OpenID Connect discovery (the issuer must match either way). */
async function discover(server: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server)
  let first: unknown
  for (const algorithm of ['oauth2', 'oidc'] as const) {
    try {
      const response = await oauth.discoveryRequest(issuer, { algorithm, ...options(issuer) })
      const as = await oauth.processDiscoveryResponse(issuer, response)
      if (!as.token_endpoint) throw new UpstreamTokenError('no_metadata', 'its metadata names no token_endpoint', server)
      return as
    } catch (e) {
      first ??= e
      // Unreachable or refused is the same for both documents: no second request.
      if (outboundErrorOf(e) || e instanceof UpstreamTokenError) break
    }
  }
  const error = tokenError(first, server)
  if (error.error === 'invalid_response') throw new UpstreamTokenError('no_metadata', error.description, server)
  throw error
}

function tokenError(e: unknown, server: string): UpstreamTokenError {
  if (e instanceof UpstreamTokenError) return e
  const outbound = outboundErrorOf(e)
  if (outbound) return new UpstreamTokenError(outbound.failure === 'refused' ? 'refused_by_policy' : 'unreachable', outbound.message, server)
  if (e instanceof oauth.ResponseBodyError) return new UpstreamTokenError(errorCode(e.error), e.error_description ? clip(e.error_description) : null, server)
  if (e instanceof oauth.WWWAuthenticateChallengeError) {
    const parameters = e.cause[0]?.parameters ?? {}
    return new UpstreamTokenError(
      errorCode(parameters.error ?? 'invalid_client'),
      parameters.error_description ? clip(parameters.error_description) : null,
      server,
    )
  }
  if (e instanceof TypeError) return new UpstreamTokenError('unreachable', clip(e.message), server)
  return new UpstreamTokenError('invalid_response', clip((e as Error).message ?? String(e)), server)
}

// What the server says is shown to operators and agents: bounded, one line, and an error code only
// in RFC 6749's alphabet (anything else is not a code the server may send).
const clip = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300)
const errorCode = (code: string) => (/^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(code) ? code : 'invalid_response')
