// How the OAuth provider keeps what it issues: tokens as SHA-256 hashes (as Toolroom keeps API tokens
// and agent credentials), client secrets sealed with TOOLROOM_SECRET_KEY like Secret values (so key
// rotation covers them). better-auth's OAuth provider and the gateway's check of a bearer token both
// use these, so they agree on what is stored.
import { hashToken } from '@/lib/auth/secret-token'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'

export const hashOAuthToken = (token: string): string => hashToken(token)

export function sealClientSecret(secret: string): string {
  const { ciphertext, keyId } = sealSecretValues({ clientSecret: secret })
  return `${keyId}:${Buffer.from(ciphertext).toString('base64')}`
}

export function openClientSecret(stored: string): string {
  const at = stored.indexOf(':')
  if (at < 1) throw new Error('the stored client secret is not sealed')
  return openSecretValues(Buffer.from(stored.slice(at + 1), 'base64'), stored.slice(0, at)).clientSecret
}
