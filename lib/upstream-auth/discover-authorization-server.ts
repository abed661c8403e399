// Which authorization server an MCP server that follows MCP authorization sends its clients to
// (docs/design/gateway.md, "Connected upstreams"): its 401 names its protected-resource metadata
// (RFC 9728), that names the authorization server, whose own metadata (RFC 8414, then OpenID
// discovery) names its endpoints. The MCP SDK's client auth helpers read the documents; everything
// they say comes from the upstream and is checked here before an operator's browser or a token is
// sent anywhere. Every request goes through the outbound guard (idpFetch: its address policy, no
// redirects, at most 256 KiB an answer).
import 'server-only'
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js'
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '@/lib/errors/app-error'
import { idpFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import { isAcceptableAuthorizationUrl, resourceMatches } from './upstream-connection-rules'

const AUTH_TIMEOUT_MS = 10_000

/** The SDK's requests, through the outbound guard. */
export const authFetch: FetchLike = (url, init) => idpFetch()(url, init, { timeoutMs: AUTH_TIMEOUT_MS })

export interface AuthorizationServerFound {
  issuer: string
  metadata: AuthorizationServerMetadata
  /** The protected-resource metadata's `resource`, sent as the RFC 8707 resource indicator. */
  resource: string
  scopesSupported: string[]
}

export async function discoverAuthorizationServer(serverUrl: string): Promise<AuthorizationServerFound> {
  const probe = await reach('the MCP server', () =>
    authFetch(serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'toolroom', version: '1' } },
      }),
    }),
  )
  await probe.body?.cancel().catch(() => {})
  if (probe.status !== 401)
    throw refused(
      'upstream',
      'mcp-authorization',
      `the MCP server answered HTTP ${probe.status} without a token, not 401: it does not ask for MCP authorization`,
    )
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(probe)
  const resource = await reach('its protected-resource metadata', () => discoverOAuthProtectedResourceMetadata(serverUrl, { resourceMetadataUrl }, authFetch))
  if (!resourceMatches(serverUrl, resource.resource))
    throw refused(
      'protectedResourceMetadata.resource',
      'rfc9728-resource',
      `the protected-resource metadata describes "${clip(resource.resource)}", not this server (${serverUrl}): it is not believed (RFC 9728 §3.3)`,
    )
  const issuer = resource.authorization_servers?.[0]
  if (!issuer) throw refused('protectedResourceMetadata.authorization_servers', 'required', 'the protected-resource metadata names no authorization server')
  if (!isAcceptableAuthorizationUrl(issuer))
    throw refused(
      'protectedResourceMetadata.authorization_servers',
      'https',
      `the authorization server "${clip(issuer)}" is not an https URL (http only on a loopback address)`,
    )
  const metadata = await reach('the authorization server metadata', () => discoverAuthorizationServerMetadata(issuer, { fetchFn: authFetch }))
  if (!metadata)
    throw refused('authorizationServerMetadata', 'required', `the authorization server ${issuer} publishes no metadata (RFC 8414 or OpenID discovery)`)
  // RFC 8414 §3.3: metadata that names another issuer is not this server's.
  if (withoutTrailingSlash(metadata.issuer) !== withoutTrailingSlash(issuer))
    throw refused('authorizationServerMetadata.issuer', 'rfc8414-issuer', `the metadata names the issuer "${clip(metadata.issuer)}", not ${issuer}`)
  for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint'] as const) {
    const value = (metadata as Record<string, unknown>)[field]
    if (value !== undefined && !isAcceptableAuthorizationUrl(value))
      throw refused(`authorizationServerMetadata.${field}`, 'https', `the metadata's ${field} is not an https URL (http only on a loopback address)`)
  }
  return { issuer, metadata, resource: resource.resource, scopesSupported: resource.scopes_supported ?? [] }
}

/** `step`, its failure told as which document could not be read and why. */
async function reach<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (e) {
    if (e instanceof AppError) throw e
    const outbound = outboundErrorOf(e)
    const why = outbound ? outbound.message : clip((e as Error).message ?? String(e))
    throw refused('upstream', outbound?.failure === 'refused' ? 'outbound-policy' : 'reachable', `${what} cannot be read: ${why}`)
  }
}

const refused = (field: string, rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', `the server cannot be connected: ${message}`, [{ field, rule, message }])

const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '')

/** What the upstream says is shown to operators: bounded, one line. */
export const clip = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300)
