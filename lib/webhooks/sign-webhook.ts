// Webhook signatures, Stripe-style: `Toolroom-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">`. The timestamp inside the signed text lets receivers refuse replays.
import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'toolroom-signature'

export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `t=${timestamp},v1=${mac}`
}

/** For receivers (and our tests): true when the header signs this body and is younger than `toleranceSeconds`. */
export function verifyWebhook(secret: string, body: string, header: string, toleranceSeconds = 300, now = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]))
  const t = Number(parts.t)
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now - t) > toleranceSeconds) return false
  const expected = Buffer.from(signWebhook(secret, body, t).split('v1=')[1], 'hex')
  const given = Buffer.from(parts.v1, 'hex')
  return expected.length === given.length && timingSafeEqual(expected, given)
}
