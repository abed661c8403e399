// Registry for bench:scale: REST tools on the bench's counting upstream (a side effect called with an
// idempotency key, a rate-limited read, a payment that needs approval, a plain read), AGENTS agents
// with a credential each, and the admin API token the approver uses. Prints {tokens}.
import { createAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { systemContext } from '@/lib/audit/audit-actor'
import { prisma } from '@/lib/db'
import { applyManifestText } from '@/lib/apply/apply-documents'
import { ensureEnvAdminToken } from '@/lib/tokens/ensure-env-admin-token'

const upstream = process.env.UPSTREAM_URL!
const agents = Number(process.env.AGENTS ?? 4)
const limit = Number(process.env.LIMIT_PER_DAY ?? 200)
const tool = (name: string, method: string, path: string, extra: string) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: scale }
spec:
  type: rest
  description: ${name}
  endpoint: { method: ${method}, url: "${upstream}${path}", timeoutMs: 10000 }
  inputSchema: { type: object, properties: { op: { type: string } } }
${extra}
`
const policy = (level: string, requiresApproval: boolean) => `---
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: ${level} }
spec: { level: ${level}, requiresApproval: ${requiresApproval} }
`
const manifest = [
  policy('read_only', false),
  policy('external_write', false),
  policy('financial', true),
  tool('scale.write', 'POST', '/write', '  sideEffects: { level: external_write, idempotent: false }'),
  tool('scale.limited', 'GET', '/limited', `  sideEffects: { level: read_only }\n  safety: { rateLimit: { callsPerDay: ${limit} } }`),
  tool('scale.pay', 'POST', '/pay', '  sideEffects: { level: financial, idempotent: false }'),
  tool('scale.read', 'GET', '/read', '  sideEffects: { level: read_only }'),
  ...Array.from(
    { length: agents },
    (_, i) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-${i}, namespace: scale }
spec: { grants: [scale.write, scale.limited, scale.pay, scale.read] }
`,
  ),
].join('')
// Refused documents throw (a validation error naming them).
await applyManifestText(manifest, { audit: systemContext('bench'), caller: 'system' })
await ensureEnvAdminToken(process.env.TOOLROOM_ADMIN_TOKEN)
const tokens: string[] = []
for (let i = 0; i < agents; i++) {
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'scale', name: `agent-${i}` } } })
  tokens.push((await createAgentCredential(agent as never, { name: 'bench' }, { kind: 'system', name: 'bench' })).token)
}
console.log(JSON.stringify({ tokens }))
await prisma.$disconnect()
