// What a held call will do, end to end with real parts (docs/design/approvals.md#summaries): Tools
// applied through the API with and without `spec.approval`, an agent on the official SDK client
// calling through a gateway server, and the approvals API, the webhook payload and the stored request
// saying it in the approver's words, with the reason of the Policy rule that held a call.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approvalApi from '@/app/api/v1/approvals/[id]/route'
import * as approvalsApi from '@/app/api/v1/approvals/route'
import { applyRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { createWebhook } from '@/lib/webhooks/manage-webhooks'
import { agentClient, startRestUpstream } from '../support/gateway-fixtures'
import { type Listening, listenOn } from '../support/listen'
import { applyManifest, call, issueAgentCredential } from './helpers'

let rest: Awaited<ReturnType<typeof startRestUpstream>>
let gateway: Listening
let client: Client

const manifest = (restUrl: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: stripe.create_refund, namespace: shop }
spec:
  type: rest
  description: Refunds all or part of a charge to the customer's card.
  endpoint: { method: POST, url: "${restUrl}/refund" }
  inputSchema:
    type: object
    required: [charge, currency]
    properties:
      charge: { type: string, title: Charge }
      amount: { type: integer, title: Amount }
      currency: { type: string }
      ticketId: { type: string }
  sideEffects: { level: financial, idempotent: false }
  approval:
    summary: "Refund {{ amount | money: currency }} on {{ charge }}"
    fields:
      amount: { unit: minor_currency, currencyField: currency, absent: full refund }
      ticketId: { label: Ticket, link: "https://support.example.com/tickets/{{ ticketId }}" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: mail.send_email, namespace: shop }
spec:
  type: rest
  description: Sends an e-mail to a customer.
  endpoint: { method: POST, url: "${restUrl}/mail" }
  inputSchema:
    type: object
    required: [to, subject]
    properties:
      to: { type: string, title: Recipient }
      subject: { type: string, title: Subject }
      sendAt: { type: string, format: date-time, title: Send at }
  sideEffects: { level: external_write, idempotent: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: outside-mail, namespace: shop }
spec:
  selector: { tools: [mail.send_email] }
  rules:
    - when: "!args.to.endsWith('@shop.example')"
      effect: require_approval
      reason: Mail outside our domain needs a second look
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: clerk, namespace: shop }
spec:
  grants: [shop/stripe.create_refund, shop/mail.send_email]
`

type Held = { structuredContent?: { status?: string; callId?: string } }
const held = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as Held
  expect(result.structuredContent?.status).toBe('approval_required')
  return prisma.approvalRequest.findUniqueOrThrow({ where: { callId: result.structuredContent!.callId! } })
}
const detail = async (id: string) => {
  const res = await call(approvalApi.GET, `/api/v1/approvals/${id}`, { params: { id } })
  expect(res.status, res.text).toBe(200)
  return res.json
}

beforeAll(async () => {
  await prisma.$executeRawUnsafe(
    'TRUNCATE "Tool", "Agent", "Policy", "SideEffectPolicy", "ToolCall", "AgentCredential", "ApprovalRequest", "WebhookEndpoint", "WebhookDelivery", "GatewayRateCounter", "GatewayIdempotency"',
  )
  rest = await startRestUpstream()
  await applyManifest(manifest(rest.url))
  await createWebhook({ name: 'approvers', url: 'https://hooks.example.com/approvals', events: ['approval.requested'] })
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'shop', name: 'clerk' } } })
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  client = await agentClient(gateway.url, await issueAgentCredential(agent.id))
})

afterAll(async () => {
  await client?.close()
  await closeMcpSessions()
  await gateway?.close()
  await rest?.close()
})

describe('a held call reads as what it will do', () => {
  it("in the Tool's words, in the currency of the call, in the API, the queue and the webhook", async () => {
    const request = await held('stripe.create_refund', { charge: 'ch_3Nx', amount: 1250000, currency: 'EUR', ticketId: 'T 42/a' })
    const view = await detail(request.id)
    expect(view).toMatchObject({
      summaryLine: 'Refund €12,500.00 on ch_3Nx',
      summarySource: 'template',
      tool: { id: 'stripe.create_refund', description: "Refunds all or part of a charge to the customer's card." },
      policyRules: [],
    })
    expect(view.summary).toEqual([
      { field: 'charge', label: 'Charge', value: 'ch_3Nx' },
      { field: 'amount', label: 'Amount', value: '€12,500.00' },
      { field: 'currency', value: 'EUR' },
      { field: 'ticketId', label: 'Ticket', value: 'T 42/a', href: 'https://support.example.com/tickets/T%2042%2Fa' },
    ])
    const list = await call(approvalsApi.GET, '/api/v1/approvals')
    expect(list.json.items.find((a: { id: string }) => a.id === request.id)).toMatchObject({ summaryLine: 'Refund €12,500.00 on ch_3Nx' })
    const [delivery] = await prisma.webhookDelivery.findMany({ where: { event: 'approval.requested' }, orderBy: { createdAt: 'asc' } })
    expect(delivery.payload).toMatchObject({ data: { approval: { id: request.id, summaryLine: 'Refund €12,500.00 on ch_3Nx' } } })
  })

  it('says what an absent optional argument means, and uses the currency of each call', async () => {
    const full = await detail((await held('stripe.create_refund', { charge: 'ch_9', currency: 'JPY' })).id)
    expect(full.summaryLine).toBe('Refund full refund on ch_9')
    expect(full.summary).toContainEqual({ field: 'amount', label: 'Amount', value: 'full refund', absent: true })
    const yen = await detail((await held('stripe.create_refund', { charge: 'ch_8', amount: 1250000, currency: 'JPY' })).id)
    expect(yen.summaryLine).toBe('Refund ¥1,250,000 on ch_8')
  })

  it('reads a tool without a template from its schema, and shows the reason of the Policy rule that held it', async () => {
    const request = await held('mail.send_email', { to: 'jane@elsewhere.example', subject: 'Your refund', sendAt: '2026-11-27T18:30:00+01:00' })
    const view = await detail(request.id)
    expect(view).toMatchObject({
      summaryLine: 'Recipient: jane@elsewhere.example · Subject: Your refund · Send at: 2026-11-27 17:30 UTC',
      summarySource: 'schema',
      tool: { description: 'Sends an e-mail to a customer.' },
      policyRules: [{ policy: 'shop/outside-mail', rule: 0, reason: 'Mail outside our domain needs a second look' }],
    })
    expect(request.policyRules).toEqual([{ policy: 'shop/outside-mail', rule: 0, reason: 'Mail outside our domain needs a second look' }])
  })
})

describe('the template is checked at apply', () => {
  it('refuses an argument the input schema lacks, at its line and column, with its place in the template', async () => {
    const text = manifest('http://127.0.0.1:9').split('---\n')[0].replace('{{ amount | money: currency }}', '{{ amout | money: currency }}')
    const res = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: text })
    expect(res.status, res.text).toBe(422)
    const lines = text.split('\n')
    expect(res.json.errors).toEqual([
      expect.objectContaining({
        field: 'spec.approval.summary',
        rule: 'template-unknown-argument',
        line: lines.findIndex((l) => l.includes('summary:')) + 1,
        message: expect.stringMatching(/^at 1:11: amout is not an argument of the tool \(it has: charge, amount, currency, ticketId\)/),
      }),
    ])
  })
})
