// Webhook signatures in the Standard Webhooks format, so receivers verify deliveries with any stock
// library of that standard (README, "Approvals" → Webhooks): `webhook-id` (the delivery's id, the
// same on every retry), `webhook-timestamp` (unix seconds, which receivers bound to refuse replays)
// and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
// bytes a `whsec_<base64>` secret names.
import 'server-only'
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { z } from '@/lib/http/zod'

const SECRET_PREFIX = 'whsec_'
/** The key sizes the standard allows. */
const MIN_KEY_BYTES = 24
const MAX_KEY_BYTES = 64

/** A fresh signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

function keyBytesOf(secret: string): number | null {
  const encoded = secret.slice(SECRET_PREFIX.length)
  if (!secret.startsWith(SECRET_PREFIX) || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return null
  return Buffer.from(encoded, 'base64').byteLength
}

/** A secret an admin chooses: in the standard's form, so stock verifiers take it as it is. */
export const webhookSecretSchema = z
  .string()
  .max(256)
  .refine((secret) => {
    const bytes = keyBytesOf(secret)
    return bytes !== null && bytes >= MIN_KEY_BYTES && bytes <= MAX_KEY_BYTES
  }, `must be "${SECRET_PREFIX}" and the base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes`)

/**
 * Secrets stored before deliveries followed the standard may not be `whsec_<base64>`: those keep
 * signing with their text's own bytes (a stock verifier opens them with its raw-key option).
 */
function signerOf(secret: string): Webhook {
  return keyBytesOf(secret) !== null ? new Webhook(secret) : new Webhook(secret, { format: 'raw' })
}

/** The headers that sign `body` as delivery `id` at `at`. */
export function signatureHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signerOf(secret).sign(id, at, body),
  }
}
