// The pure rules of connected upstreams (docs/design/gateway.md, "Connected upstreams"): what a
// connection is made for, which authorization servers and metadata are believed, and how a missing
// or broken connection is told.
import 'server-only'
import { createHash } from 'node:crypto'
import type { OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import { describeTokenFailure } from './upstream-token-rules'

/** How long an operator has between asking for the authorization URL and coming back through the callback. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000

/**
 * What a connection was made for: the server's address and the client asked with. A LanguageTool
 * whose endpoint, client or scopes changed does not keep using tokens granted for the old ones.
 */
export function connectionConfigKey(endpoint: string, oauth2: OAuth2Connection): string {
  const identity = {
    endpoint,
    clientId: oauth2.clientId ?? null,
    secret: oauth2.clientSecretRef ? [oauth2.clientSecretRef.name, oauth2.clientSecretRef.key ?? null] : null,
    scopes: [...new Set(oauth2.scopes ?? [])].sort(),
  }
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex')
}

export const stateHashOf = (state: string) => createHash('sha256').update(state).digest('hex')

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Where an operator's browser and Toolroom's token requests may be sent: https, or http on a loopback
 * address (a development or test server). The metadata comes from the upstream, which may be hostile:
 * plain http elsewhere would hand codes and refresh tokens to anyone on the path.
 */
export function isAcceptableAuthorizationUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048 || !URL.canParse(value)) return false
  const url = new URL(value)
  if (url.username || url.password || url.hash) return false
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
}

/**
 * RFC 9728 §3.3: the metadata's `resource` is the server it describes. Accepted when it is the
 * server's URL or a prefix of it on the same origin (MCP authorization: the canonical server URI may
 * leave out the endpoint's path); anything else is metadata of another server.
 */
export function resourceMatches(serverUrl: string, resource: string): boolean {
  if (!URL.canParse(resource)) return false
  const server = new URL(serverUrl)
  const named = new URL(resource)
  if (named.hash || server.origin !== named.origin) return false
  const path = (p: string) => (p.endsWith('/') ? p : `${p}/`)
  return path(server.pathname).startsWith(path(named.pathname))
}

/** Why calls and discovery have no token for a connected upstream: the LanguageTool's condition. */
export type ConnectionNeed = 'not_connected' | 'changed' | 'reconnect'

export class UpstreamConnectionNeeded extends Error {
  constructor(
    readonly need: ConnectionNeed,
    /** The authorization server's error when it refused the refresh token (invalid_grant, ...). */
    readonly error: string | null = null,
    readonly description: string | null = null,
  ) {
    super(describeConnectionNeed(need, error, description))
    this.name = 'UpstreamConnectionNeeded'
  }
}

export function describeConnectionNeed(need: ConnectionNeed, error: string | null, description: string | null): string {
  if (need === 'not_connected') return 'needs connecting: an operator connects it from its page'
  if (need === 'changed') return 'needs connecting again: its endpoint or OAuth client changed since it was connected; an operator reconnects it from its page'
  const why = error ? ` (the authorization server answered ${error}${description ? `: ${description}` : ''})` : ''
  return `reconnect: the authorization server no longer accepts its refresh token${why}; an operator reconnects it from its page`
}

/** Where a connection stands, for whoever made it: an operator (a LanguageTool's) or a person (their own). */
export type ConnectionState = 'not_connected' | 'connected' | 'reconnect'

/** What a stored connection (an operator's or a person's) holds that says where it stands. */
export interface StoredConnection {
  configKey: string
  /** The sealed tokens; gone once the authorization server refused the refresh token. */
  ciphertext: Uint8Array | null
  error: string | null
  errorDescription: string | null
  authorizationServer: string
}

/**
 * Where a connection stands, and what its reader should know: none, connected, or needing a
 * reconnect (made for an endpoint or client that changed since, or its refresh token refused); a
 * connected one's message is its last refresh's failure, if that failed. `tell` words a need for the
 * reader (the operator, or the person whose connection it is); null says nothing.
 */
export function connectionStateOf(
  row: StoredConnection | null,
  currentConfigKey: string,
  tell: (need: ConnectionNeed, error: string | null, description: string | null) => string | null,
): { state: ConnectionState; message: string | null } {
  if (!row) return { state: 'not_connected', message: tell('not_connected', null, null) }
  if (row.configKey !== currentConfigKey) return { state: 'reconnect', message: tell('changed', null, null) }
  if (!row.ciphertext) return { state: 'reconnect', message: tell('reconnect', row.error, row.errorDescription) }
  return { state: 'connected', message: row.error ? describeTokenFailure(row.error, row.errorDescription, row.authorizationServer) : null }
}

/** Refresh failures that no retry mends: the grant or the client is gone, and only a new sign-in helps. */
export const REFUSALS_NEEDING_RECONNECT = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client'])

/** Where a person connects their own accounts: the portal's Connections page. */
export const CONNECTIONS_PAGE = '/connections'

/** The Connections page, opened at one LanguageTool. */
export function connectionsPageUrl(origin: string | null, server: { namespace: string; name: string }): string {
  return `${origin ?? ''}${CONNECTIONS_PAGE}?languageTool=${encodeURIComponent(`${server.namespace}/${server.name}`)}`
}

/**
 * Why a call made for a person has no token of theirs for a `connect: perPerson` server: nobody is
 * acted for, the person has no portal account (so no Connections page), their account is disabled,
 * or their connection needs making (again). Only the last is the person's to mend.
 */
export type PersonConnectionNeed = 'no_person' | 'no_account' | 'disabled' | ConnectionNeed

export class PersonConnectionNeeded extends Error {
  constructor(
    readonly need: PersonConnectionNeed,
    readonly person: { displayName: string } | null,
    readonly error: string | null = null,
    readonly description: string | null = null,
  ) {
    super(describePersonConnectionNeed(need, person?.displayName ?? null, error, description))
    this.name = 'PersonConnectionNeeded'
  }

  /** The operator-worded refusal of a person's connection, told to the person; anything else as it is. */
  static from(e: unknown, person: { displayName: string }): unknown {
    return e instanceof UpstreamConnectionNeeded ? new PersonConnectionNeeded(e.need, person, e.error, e.description) : e
  }

  /** The person can mend it on their Connections page. */
  get connectable(): boolean {
    return this.need === 'not_connected' || this.need === 'changed' || this.need === 'reconnect'
  }
}

export function describePersonConnectionNeed(need: PersonConnectionNeed, who: string | null, error: string | null, description: string | null): string {
  const person = who ?? 'the person'
  switch (need) {
    case 'no_person':
      return 'calls it with the account of the person they are made for, and this call is made for nobody: the agent must act for a person (an OAuth client a person consented to, or a token exchanged for one)'
    case 'no_account':
      return `calls it with the account of the person they are made for, and ${person} has no Toolroom portal account to connect one from`
    case 'disabled':
      return `calls it with the account of the person they are made for, and ${person}'s Toolroom account is disabled`
    case 'not_connected':
      return `calls it with the account of the person they are made for, and ${person} has not connected theirs yet`
    case 'changed':
      return `calls it with the account of the person they are made for, and ${person}'s connection was made before its endpoint or OAuth client changed: it needs connecting again`
    case 'reconnect': {
      const why = error ? ` (the authorization server answered ${error}${description ? `: ${description}` : ''})` : ''
      return `calls it with the account of the person they are made for, and the authorization server no longer accepts ${person}'s refresh token${why}: it needs connecting again`
    }
  }
}
