// Posts one queued delivery, signed, through the same SSRF-guarded client as every other outbound
// call. A failure throws so the queue retries it with backoff; the last attempt marks it failed.
import { prisma } from '@/lib/db'
import { discoveryFetch } from '@/lib/discovery/outbound/discovery-fetch'
import { openSecretValues } from '@/lib/secrets/encryption'
import { SIGNATURE_HEADER, signWebhook } from './sign-webhook'

const TIMEOUT_MS = Number(process.env.TOOLROOM_WEBHOOK_TIMEOUT_MS ?? 10_000)

export async function deliverWebhook(deliveryId: string, attempt: number, lastAttempt: boolean): Promise<'delivered' | 'skipped'> {
  const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId } })
  if (!delivery || delivery.status === 'delivered') return 'skipped'
  const endpoint = await prisma.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } })
  if (!endpoint || !endpoint.enabled) {
    await prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: 'failed', lastError: 'the endpoint was removed or disabled' } })
    return 'skipped'
  }
  const body = JSON.stringify({ id: delivery.id, ...(delivery.payload as object) })
  const { secret } = openSecretValues(endpoint.secretCiphertext, endpoint.keyId)
  let status: number | null = null
  let error: string | null = null
  try {
    const response = await discoveryFetch()(
      endpoint.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Toolroom-Webhooks/1',
          'toolroom-event': delivery.event,
          'toolroom-delivery': delivery.id,
          [SIGNATURE_HEADER]: signWebhook(secret, body),
        },
        body,
        redirect: 'manual',
      },
      { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 },
    )
    status = response.status
    await response.arrayBuffer().catch(() => undefined)
    if (status < 200 || status >= 300) error = `the endpoint answered HTTP ${status}`
  } catch (e) {
    error = (e as Error).message
  }
  await prisma.webhookDelivery.update({
    where: { id: deliveryId },
    data: {
      attempts: attempt,
      lastStatus: status,
      lastError: error,
      ...(error ? (lastAttempt ? { status: 'failed' } : {}) : { status: 'delivered', deliveredAt: new Date() }),
    },
  })
  if (error) throw new Error(`webhook delivery ${deliveryId} to ${endpoint.name}: ${error}`)
  return 'delivered'
}
