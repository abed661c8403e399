// Queues one delivery per enabled endpoint that subscribed to the event. Delivery (signing, posting,
// retrying) is a worker's job, so a slow receiver never slows an approver or an agent.
import 'server-only'
import { prisma } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { enqueueMany } from '@/lib/jobs/enqueue'
import { deliverWebhookJob } from '@/lib/jobs/job-contracts'
import type { WebhookEvent } from './webhook-events'

export async function publishWebhookEvent(event: WebhookEvent, data: Record<string, unknown>): Promise<number> {
  const endpoints = await prisma.webhookEndpoint.findMany({ where: { enabled: true, events: { has: event } }, select: { id: true } })
  if (endpoints.length === 0) return 0
  const payload = { event, at: new Date().toISOString(), data } as Prisma.InputJsonValue
  const deliveries = await prisma.webhookDelivery.createManyAndReturn({
    data: endpoints.map((e) => ({ endpointId: e.id, event, payload })),
    select: { id: true },
  })
  await enqueueMany(
    deliverWebhookJob,
    deliveries.map((d) => ({ deliveryId: d.id })),
  )
  return deliveries.length
}
