// The authorization server's metadata (RFC 8414) as better-auth's OAuth provider writes it, less what
// is not there: every endpoint it names answers (lib/auth/open-auth-endpoints.ts; introspection, for
// one, is not served: the gateway looks its tokens up itself, lib/oauth/identify-oauth-token.ts), the
// registration endpoint only while some agent accepts dynamically registered clients, and no DPoP
// (the gateway takes bearer tokens only, so a DPoP-bound token would open nothing); and one more grant,
// token exchange, which Toolroom answers itself.
import 'server-only'
import { getAuth } from './better-auth'
import { TOKEN_EXCHANGE_GRANT } from '@/lib/oauth/exchange-token'
import { openAuthEndpoint } from '@/lib/auth/open-auth-endpoints'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider'
import { dynamicRegistrationOpen } from '@/lib/oauth/manage-oauth-clients'

/** How each endpoint RFC 8414 (and OpenID Connect discovery) can name is called; any other is left out. */
export const ENDPOINT_METHODS: Record<string, 'GET' | 'POST'> = {
  authorization_endpoint: 'GET',
  token_endpoint: 'POST',
  registration_endpoint: 'POST',
  revocation_endpoint: 'POST',
  introspection_endpoint: 'POST',
  userinfo_endpoint: 'GET',
  jwks_uri: 'GET',
  end_session_endpoint: 'GET',
  device_authorization_endpoint: 'POST',
  pushed_authorization_request_endpoint: 'POST',
}

export async function authServerMetadata(request: Request): Promise<Response> {
  // A Host that names no host is refused (400) rather than answered with better-auth's fallback address.
  publicOrigin(request)
  const answer = await oauthProviderAuthServerMetadata(getAuth())(request)
  if (!answer.ok) return answer
  const metadata = (await answer.json()) as Record<string, unknown>
  const registrationOpen = await dynamicRegistrationOpen()
  for (const [key, value] of Object.entries(metadata)) {
    if (!key.endsWith('_endpoint') && key !== 'jwks_uri') continue
    if (served(key, value) && (key !== 'registration_endpoint' || registrationOpen)) continue
    // With the endpoint go its properties (`introspection_endpoint_auth_methods_supported`, …).
    for (const related of Object.keys(metadata)) if (related === key || related.startsWith(`${key}_`)) delete metadata[related]
  }
  delete metadata.dpop_signing_alg_values_supported
  // The token endpoint also takes RFC 8693 token exchange (an agent acting for a person, lib/oauth/exchange-token.ts).
  const grants = Array.isArray(metadata.grant_types_supported) ? (metadata.grant_types_supported as string[]) : []
  metadata.grant_types_supported = [...grants.filter((g) => g !== TOKEN_EXCHANGE_GRANT), TOKEN_EXCHANGE_GRANT]
  return Response.json(metadata, { headers: { 'cache-control': answer.headers.get('cache-control') ?? 'no-store' } })
}

function served(key: string, value: unknown): boolean {
  const method = ENDPOINT_METHODS[key]
  if (!method || typeof value !== 'string') return false
  try {
    return openAuthEndpoint(method, new URL(value).pathname) !== undefined
  } catch {
    return false
  }
}
