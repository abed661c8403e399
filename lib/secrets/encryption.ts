// Secret values are sealed with AES-256-GCM under a key from the environment (TOOLROOM_SECRET_KEY,
// 32 bytes in base64). The start script generates and keeps one for the embedded database.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

interface Key {
  id: string
  bytes: Buffer
}

let cached: Key | null = null

function currentKey(): Key {
  if (cached) return cached
  const encoded = process.env.TOOLROOM_SECRET_KEY
  if (!encoded) throw new Error('TOOLROOM_SECRET_KEY is not set: secrets cannot be encrypted (see README, "Secrets")')
  const bytes = Buffer.from(encoded, 'base64')
  if (bytes.length !== 32) throw new Error('TOOLROOM_SECRET_KEY must be 32 bytes, base64-encoded')
  cached = { id: createHash('sha256').update(bytes).digest('hex').slice(0, 12), bytes }
  return cached
}

export function sealSecretValues(values: Record<string, string>): { ciphertext: Buffer; keyId: string } {
  const key = currentKey()
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()])
  return { ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]), keyId: key.id }
}

export function openSecretValues(sealed: Uint8Array, keyId: string): Record<string, string> {
  const key = currentKey()
  if (keyId !== key.id) throw new Error(`secret was sealed with key ${keyId}, but the configured key is ${key.id}`)
  const buf = Buffer.from(sealed)
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, buf.subarray(0, 12))
  decipher.setAuthTag(buf.subarray(12, 28))
  return JSON.parse(Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8'))
}
