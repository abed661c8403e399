// What webhooks announce, and the states of a delivery: one list for the publisher, the API's schemas
// and the portal (no imports, so the portal takes only the lists).
export const WEBHOOK_EVENTS = ['approval.requested', 'approval.decided'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
