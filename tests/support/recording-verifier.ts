// The bearer-auth verifier of a test upstream MCP server: asks the test authorization server whether
// a token is one it issued (and unexpired), and records every token it was shown.
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js'

export interface IssuedToken {
  clientId: string
  scopes: string[]
  resource: string | undefined
  /** Milliseconds since the epoch. */
  expiresAt: number
}

export function recordingVerifier(verify: (token: string) => Promise<IssuedToken | null>, seen: string[]): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      seen.push(token)
      const known = await verify(token)
      if (!known) throw new InvalidTokenError('unknown or expired token')
      return {
        token,
        clientId: known.clientId,
        scopes: known.scopes,
        expiresAt: Math.floor(known.expiresAt / 1000),
        resource: known.resource ? new URL(known.resource) : undefined,
      }
    },
  }
}
