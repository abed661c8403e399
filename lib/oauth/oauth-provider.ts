// better-auth's OAuth 2.1 provider (@better-auth/oauth-provider), set up as the authorization server
// MCP clients use for `/mcp` (MCP authorization, RFC 9728 / 8414 / 8707): authorization code with PKCE
// for people's clients, client credentials for workloads, refresh tokens for `offline_access`.
// Access tokens are opaque (`tro_…`), short-lived and stored hashed, so the gateway checks each one in
// the database (and a revocation holds at once); what a token may do is the one Agent its client is
// bound to (lib/oauth/identify-oauth-token.ts). Clients are registered by admins through Toolroom's
// own API (the plugin's client-management endpoints are closed); dynamic registration is open only
// while an admin lets some agent accept such clients (lib/sign-in/auth-handler.ts), and such a client
// acts as an agent only once a person bound it at consent.
import 'server-only'
import { oauthProvider } from '@better-auth/oauth-provider'
import { hashOAuthToken, openClientSecret, sealClientSecret } from './oauth-secrets'
import { OAUTH_PREFIXES, OAUTH_SCOPES, oauthSettings } from './oauth-settings'
import { configuredMcpResources } from './protected-resource'

export const OAUTH_LOGIN_PAGE = '/sign-in'
export const OAUTH_CONSENT_PAGE = '/oauth/consent'

export function toolroomOAuthProvider() {
  const settings = oauthSettings()
  return oauthProvider({
    loginPage: OAUTH_LOGIN_PAGE,
    consentPage: OAUTH_CONSENT_PAGE,
    scopes: [...OAUTH_SCOPES],
    grantTypes: ['authorization_code', 'client_credentials', 'refresh_token'],
    // No ID tokens and no JWT access tokens: every access token is an opaque one the gateway looks up.
    disableJwtPlugin: true,
    accessTokenExpiresIn: settings.accessTokenSeconds,
    m2mAccessTokenExpiresIn: settings.accessTokenSeconds,
    refreshTokenExpiresIn: settings.refreshTokenSeconds,
    codeExpiresIn: settings.codeSeconds,
    storeTokens: { hash: async (token) => hashOAuthToken(token) },
    storeClientSecret: { encrypt: async (secret) => sealClientSecret(secret), decrypt: async (stored) => openClientSecret(stored) },
    prefix: OAUTH_PREFIXES,
    allowDynamicClientRegistration: true,
    allowUnauthenticatedClientRegistration: true,
    clientRegistrationDefaultScopes: [...OAUTH_SCOPES],
    // Every resource this server issues tokens for is one of Toolroom's own `/mcp` identifiers: the
    // configured one, seeded here, and those of origins people acted at (lib/oauth/protected-resource.ts).
    resources: configuredMcpResources(),
    enforcePerClientResources: false,
    // Clients and resources are managed through Toolroom's API (admins), never the plugin's endpoints.
    clientPrivileges: async () => false,
    resourcePrivileges: async () => false,
  })
}
