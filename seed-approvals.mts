import { randomUUID } from 'node:crypto'
import { prisma } from './lib/db.ts'
import { requestApproval } from './lib/approvals/request-approval.ts'
const agents = await prisma.agent.findMany({ take: 3 })
const tools = [['payments.refund', 'financial', { orderId: 'A-1042', amount: 125.5, currency: 'EUR', cardNumber: '[redacted]' }], ['mail.send_customer_email', 'communication', { to: 'customer@example.com', subject: 'Your refund', body: 'Hello…' }], ['iam.grant_role', 'privileged', { user: 'bob', role: 'admin' }]] as const
const n = Number(process.argv[2] ?? 7)
for (let i = 0; i < n; i++) {
  const a = agents[i % agents.length]
  const [toolId, level, args] = tools[i % tools.length]
  const c = await prisma.toolCall.create({ data: { agentId: a.id, agentNamespace: a.namespace, agentName: a.name, unit: a.unit, toolId, toolNamespace: toolId.split('.')[0], provenance: 'grant', level, channel: 'mcp', outcome: 'pending_approval', idempotencyKey: `k-${randomUUID().slice(0, 8)}` } })
  const r = await requestApproval({ callId: c.id, agent: { id: a.id, namespace: a.namespace, name: a.name, unit: a.unit }, tool: { id: toolId, namespace: toolId.split('.')[0], level }, approvalSource: 'default', args, redactedArgs: args, idempotencyKey: c.idempotencyKey, rateLimit: { callsPerMinute: { used: i + 1, limit: 10 }, callsPerDay: { used: 40 + i, limit: 500 } } })
  await prisma.approvalRequest.update({ where: { id: r.id }, data: { requestedAt: new Date(Date.now() - (n - i) * 7 * 60_000) } })
}
await prisma.$disconnect()
