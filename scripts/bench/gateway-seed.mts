// Registry for bench:gateway: a LanguageTool pointing at the bench upstream (its surface stored as
// discovery would), an agent referencing it, and a credential. Prints {token}.
import { prisma } from '@/lib/db'
import { systemContext } from '@/lib/audit/audit-actor'
import { applyManifestText } from '@/lib/manifests/apply-documents'
import { createAgentCredential } from '@/lib/agent-credentials/agent-credentials'

const upstream = process.env.UPSTREAM_URL!
await applyManifestText(
  `apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: read_only }
spec: { level: read_only, requiresApproval: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: bench, namespace: default }
spec: { endpoint: "${upstream}" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: bench-agent, namespace: default }
spec: { languageTools: [bench] }
`,
  { audit: systemContext('bench'), caller: 'system' },
)
await prisma.languageTool.update({
  where: { namespace_name: { namespace: 'default', name: 'bench' } },
  data: {
    phase: 'Ready',
    toolSchemas: [
      {
        name: 'lookup',
        description: 'Looks a key up',
        inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ],
  },
})
const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'default', name: 'bench-agent' } } })
const { token } = await createAgentCredential(agent as never, { name: 'bench' }, { kind: 'system', name: 'bench' })
console.log(JSON.stringify({ token }))
await prisma.$disconnect()
