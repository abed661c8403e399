import { deliverWebhookJob } from '@/lib/jobs/job-contracts'
import { deliverWebhook } from '@/lib/webhooks/deliver-webhook'
import { defineJob } from '../define-job'

export default defineJob(deliverWebhookJob, async ({ deliveryId }, { attempt, lastAttempt }) => {
  await deliverWebhook(deliveryId, attempt, lastAttempt)
})
