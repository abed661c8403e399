// MCP authorization's settings: how long what better-auth's OAuth provider issues lives (lib/config.ts
// holds the bounds), and the prefixes that name Toolroom's OAuth secrets when one turns up in a log or
// a secret scanner.
import 'server-only'
import { config } from '@/lib/config'

export interface OAuthSettings {
  /** Access tokens (authorization code and client credentials alike). */
  accessTokenSeconds: number
  /** Refresh tokens, for clients that asked for `offline_access`. */
  refreshTokenSeconds: number
  /** Authorization codes. */
  codeSeconds: number
}

export function oauthSettings(): OAuthSettings {
  return {
    accessTokenSeconds: config().TOOLROOM_OAUTH_ACCESS_TOKEN_SECONDS,
    refreshTokenSeconds: config().TOOLROOM_OAUTH_REFRESH_TOKEN_SECONDS,
    codeSeconds: 120,
  }
}

/** `tro_` access tokens, `trr_` refresh tokens, `trc_` client secrets (the prefixes are not stored). */
export const OAUTH_PREFIXES = { opaqueAccessToken: 'tro_', refreshToken: 'trr_', clientSecret: 'trc_' } as const

/** The scope that opens `/mcp`; `offline_access` asks for a refresh token. */
export const MCP_SCOPE = 'mcp'
export const OAUTH_SCOPES = [MCP_SCOPE, 'offline_access'] as const
