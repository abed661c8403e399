// Posts one queued delivery, signed, through the SSRF-guarded webhook client (lib/outbound: no
// redirects). A failure throws so the queue retries it with backoff; the last attempt marks it failed.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { webhookFetch } from '@/lib/outbound/outbound-clients'
import { openSecretValues } from '@/lib/secrets/encryption'
import { signatureHeaders } from './sign-webhook'

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
    const response = await webhookFetch()(
      endpoint.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Toolroom-Webhooks/1',
          'toolroom-event': delivery.event,
          ...signatureHeaders(secret, delivery.id, body),
        },
        body,
      },
      { timeoutMs: config().TOOLROOM_WEBHOOK_TIMEOUT_MS },
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
