// Which credential an upstream access token belongs to (docs/design/gateway.md, "Upstream credentials").
import 'server-only'
import { createHash } from 'node:crypto'
import type { OAuth2Client } from '@/lib/manifests/specs/upstream-auth'

/**
 * The cache key of a credential (a person's exchanged tokens: this, `:`, the person's own,
 * lib/upstream-auth/exchange-for-upstream.ts). Two specs that would ask the same server for the same token share
 * it; anything that changes what the token may do (scopes, resource, client, secret) is another key,
 * so an edited manifest never keeps using a token fetched for the old one.
 */
export function upstreamTokenKey(namespace: string, oauth2: OAuth2Client): string {
  const identity = {
    namespace,
    issuer: oauth2.issuer ?? null,
    tokenUrl: oauth2.tokenUrl ?? null,
    clientId: oauth2.clientId,
    secret: [oauth2.clientSecretRef.name, oauth2.clientSecretRef.key ?? null],
    scopes: [...new Set(oauth2.scopes ?? [])].sort(),
    resource: oauth2.resource ?? null,
    // Only when set: the keys of client credentials stay what they were.
    ...(oauth2.audience !== undefined ? { audience: oauth2.audience } : {}),
    ...(oauth2.grantType !== 'client_credentials' ? { grantType: oauth2.grantType } : {}),
  }
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex')
}
