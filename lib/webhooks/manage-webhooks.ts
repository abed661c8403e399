// Admins register where approval events go. The signing secret is sealed like a Secret's values and
// shown once, when it is created.
import 'server-only'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { WebhookEndpoint } from '@/lib/generated/prisma/client'
import { sealSecretValues } from '@/lib/secrets/encryption'
import type { WebhookEvent } from './webhook-events'
import { generateWebhookSecret } from './sign-webhook'

export interface WebhookInput {
  name: string
  url: string
  events: WebhookEvent[]
  enabled?: boolean
  /** Leave out to have one generated. */
  secret?: string
}

const webhookView = ({ secretCiphertext: _c, keyId: _k, ...rest }: WebhookEndpoint) => ({
  ...rest,
  createdAt: rest.createdAt.toISOString(),
  updatedAt: rest.updatedAt.toISOString(),
})

export async function createWebhook(input: WebhookInput) {
  const secret = input.secret ?? generateWebhookSecret()
  const sealed = sealSecretValues({ secret })
  try {
    const row = await prisma.webhookEndpoint.create({
      data: {
        name: input.name,
        url: input.url,
        events: input.events,
        enabled: input.enabled ?? true,
        secretCiphertext: new Uint8Array(sealed.ciphertext),
        keyId: sealed.keyId,
      },
    })
    return { ...webhookView(row), secret }
  } catch (e) {
    if ((e as { code?: string }).code === 'P2002')
      throw new AppError('CONFLICT', `a webhook named "${input.name}" exists`, [{ field: 'name', rule: 'unique', message: 'is already taken' }])
    throw e
  }
}

export async function listWebhooks() {
  const rows = await prisma.webhookEndpoint.findMany({ orderBy: { name: 'asc' } })
  return { items: rows.map(webhookView) }
}

export async function updateWebhook(id: string, patch: Partial<Omit<WebhookInput, 'secret'>>) {
  const found = await prisma.webhookEndpoint.findUnique({ where: { id } })
  if (!found) throw notFound(`webhook "${id}"`)
  const row = await prisma.webhookEndpoint.update({ where: { id }, data: { ...patch, updatedAt: new Date() } })
  return webhookView(row)
}

export async function deleteWebhook(id: string) {
  const { count } = await prisma.webhookEndpoint.deleteMany({ where: { id } })
  if (!count) throw notFound(`webhook "${id}"`)
}

export async function listDeliveries(endpointId: string, limit = 50) {
  const rows = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'desc' }, take: limit })
  return { items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), deliveredAt: r.deliveredAt?.toISOString() ?? null })) }
}
