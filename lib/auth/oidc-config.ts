// Optional single sign-on through any OpenID Connect provider, configured only by environment:
// TOOLROOM_OIDC_ISSUER (or TOOLROOM_OIDC_DISCOVERY_URL), TOOLROOM_OIDC_CLIENT_ID,
// TOOLROOM_OIDC_CLIENT_SECRET, and optionally TOOLROOM_OIDC_NAME (the button label) and
// TOOLROOM_OIDC_SCOPES. lib/config.ts refuses a half configuration at start.
import 'server-only'
import type { GenericOAuthConfig } from 'better-auth/plugins/generic-oauth'
import { type Config, config } from '@/lib/config'

export const OIDC_PROVIDER_ID = 'oidc'

export interface OidcButton {
  providerId: string
  name: string
}

type OidcConfig = Pick<
  Config,
  | 'TOOLROOM_OIDC_ISSUER'
  | 'TOOLROOM_OIDC_DISCOVERY_URL'
  | 'TOOLROOM_OIDC_CLIENT_ID'
  | 'TOOLROOM_OIDC_CLIENT_SECRET'
  | 'TOOLROOM_OIDC_NAME'
  | 'TOOLROOM_OIDC_SCOPES'
>

export function oidcProvider(from: OidcConfig = config()): GenericOAuthConfig | null {
  const issuer = from.TOOLROOM_OIDC_ISSUER
  const discoveryUrl = from.TOOLROOM_OIDC_DISCOVERY_URL ?? (issuer ? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration` : undefined)
  const { TOOLROOM_OIDC_CLIENT_ID: clientId, TOOLROOM_OIDC_CLIENT_SECRET: clientSecret } = from
  if (!discoveryUrl || !clientId || !clientSecret) return null
  return {
    providerId: OIDC_PROVIDER_ID,
    name: from.TOOLROOM_OIDC_NAME,
    discoveryUrl,
    clientId,
    clientSecret,
    scopes: from.TOOLROOM_OIDC_SCOPES.split(/[\s,]+/).filter(Boolean),
    pkce: true,
  }
}

/** What the sign-in page needs to show the provider's button (nothing secret). */
export function oidcButton(from: OidcConfig = config()): OidcButton | null {
  const provider = oidcProvider(from)
  return provider ? { providerId: provider.providerId, name: provider.name ?? provider.providerId } : null
}
