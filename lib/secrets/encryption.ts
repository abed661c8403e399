// Secret values are sealed with AES-256-GCM under a key from the environment (TOOLROOM_SECRET_KEY,
// 32 bytes in base64, checked by lib/config.ts). The start script generates and keeps one for the embedded database.
// To rotate the key: set the new one as TOOLROOM_SECRET_KEY, keep the old one(s) in
// TOOLROOM_SECRET_KEYS_PREVIOUS (comma-separated) so existing secrets still open, and run
// `npm run secrets:reencrypt` to re-seal every secret under the new key.
import 'server-only'
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { type Config, config } from '@/lib/config'
import { noteSecretValues } from './mask-secret-values'

interface Key {
  id: string
  bytes: Buffer
}

let cached: { from: Config; current: Key; byId: Map<string, Key> } | null = null

function keyOf(encoded: string): Key {
  const bytes = Buffer.from(encoded.trim(), 'base64')
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 12), bytes }
}

function keys() {
  const from = config()
  if (cached?.from === from) return cached
  if (!from.TOOLROOM_SECRET_KEY) throw new Error('TOOLROOM_SECRET_KEY is not set: secrets cannot be encrypted (see README, "Secrets")')
  const key = keyOf(from.TOOLROOM_SECRET_KEY)
  const byId = new Map([[key.id, key]])
  for (const encoded of from.TOOLROOM_SECRET_KEYS_PREVIOUS) {
    const old = keyOf(encoded)
    if (!byId.has(old.id)) byId.set(old.id, old)
  }
  cached = { from, current: key, byId }
  return cached
}

/** The id (a short hash, not the key) of the key new values are sealed under. */
export function currentKeyId(): string {
  return keys().current.id
}

export function sealSecretValues(values: Record<string, string>): { ciphertext: Uint8Array<ArrayBuffer>; keyId: string } {
  noteSecretValues(Object.values(values))
  const key = keys().current
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()])
  return { ciphertext: new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), body])), keyId: key.id }
}

export function openSecretValues(sealed: Uint8Array, keyId: string): Record<string, string> {
  const { byId, current } = keys()
  const key = byId.get(keyId)
  if (!key) throw new Error(`secret was sealed with key ${keyId}, which is neither TOOLROOM_SECRET_KEY (${current.id}) nor in TOOLROOM_SECRET_KEYS_PREVIOUS`)
  const buf = Buffer.from(sealed)
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, buf.subarray(0, 12))
  decipher.setAuthTag(buf.subarray(12, 28))
  const values = JSON.parse(Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8')) as Record<string, string>
  // Whatever this process has seen in plain text, its logs and error answers mask.
  noteSecretValues(Object.values(values))
  return values
}
