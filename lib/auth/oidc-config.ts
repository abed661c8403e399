// Optional single sign-on through any OpenID Connect provider, configured only by environment:
// TOOLROOM_OIDC_ISSUER (or TOOLROOM_OIDC_DISCOVERY_URL), TOOLROOM_OIDC_CLIENT_ID,
// TOOLROOM_OIDC_CLIENT_SECRET, and optionally TOOLROOM_OIDC_NAME (the button label) and TOOLROOM_OIDC_SCOPES.
import 'server-only'
import type { GenericOAuthConfig } from 'better-auth/plugins/generic-oauth'

const OIDC_PROVIDER_ID = 'oidc'

export interface OidcButton {
  providerId: string
  name: string
}

export function oidcProviderFromEnv(env: Record<string, string | undefined> = process.env): GenericOAuthConfig | null {
  const issuer = env.TOOLROOM_OIDC_ISSUER?.trim()
  const discoveryUrl = env.TOOLROOM_OIDC_DISCOVERY_URL?.trim() || (issuer ? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration` : '')
  const clientId = env.TOOLROOM_OIDC_CLIENT_ID?.trim()
  const clientSecret = env.TOOLROOM_OIDC_CLIENT_SECRET?.trim()
  if (!discoveryUrl && !clientId && !clientSecret) return null
  const missing = [!discoveryUrl && 'TOOLROOM_OIDC_ISSUER', !clientId && 'TOOLROOM_OIDC_CLIENT_ID', !clientSecret && 'TOOLROOM_OIDC_CLIENT_SECRET'].filter(Boolean)
  if (missing.length) throw new Error(`OpenID Connect is half configured: set ${missing.join(', ')} as well (or none of them)`)
  return {
    providerId: OIDC_PROVIDER_ID,
    name: env.TOOLROOM_OIDC_NAME?.trim() || 'single sign-on',
    discoveryUrl,
    clientId: clientId!,
    clientSecret: clientSecret!,
    scopes: (env.TOOLROOM_OIDC_SCOPES?.trim() || 'openid email profile').split(/[\s,]+/),
    pkce: true,
  }
}

/** What the sign-in page needs to show the provider's button (nothing secret). */
export function oidcButton(env: Record<string, string | undefined> = process.env): OidcButton | null {
  const provider = oidcProviderFromEnv(env)
  return provider ? { providerId: provider.providerId, name: provider.name ?? provider.providerId } : null
}
