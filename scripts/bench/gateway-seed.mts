// Registry for bench:gateway: a LanguageTool pointing at the bench upstream (its surface stored as
// discovery would), an agent referencing it, and a credential. Prints {token}. With
// BENCH_UPSTREAM_AUTH the LanguageTool authenticates: `bearer` a static Authorization header from a
// Secret, `oauth2` the client credentials grant at BENCH_ISSUER, `token_exchange` the person's token
// (BENCH_PERSON_TOKEN, exchanged here for the agent's tro_ token, printed instead of its tra_ one)
// exchanged at BENCH_ISSUER. BENCH_POLICIES=<n> adds n Policies
// reaching the bench agent's `bench.lookup`, none of whose rules match the bench's arguments.
// BENCH_RATE_LIMIT=1 gives the agent a per-minute and a per-day limit no run reaches, so that every
// call is counted in PostgreSQL as any limited agent's or tool's is (lib/gateway/rate-limit.ts).
import { prisma } from '@/lib/db'
import { systemContext } from '@/lib/audit/audit-actor'
import { applyManifestText } from '@/lib/apply/apply-documents'
import { createAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { exchangeToken } from '@/lib/oauth/exchange-token'

const upstream = process.env.UPSTREAM_URL!
const mode = process.env.BENCH_UPSTREAM_AUTH ?? 'none'
const secret = (value: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: bench-upstream, namespace: default }
spec: { stringData: { value: "${value}" } }
---
`
const policies = Array.from(
  { length: Number(process.env.BENCH_POLICIES ?? 0) },
  (_, i) => `---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: bench-${i}, namespace: default }
spec:
  selector: { tools: ["bench.*"] }
  rules:
    - when: has(args.key) && args.key.startsWith("blocked-${i}-") && agent.labels.tier == "none"
      effect: deny
      reason: bench policy ${i}
`,
).join('')
const auth =
  mode === 'bearer'
    ? `, authHeaders: [{ name: Authorization, secretRef: { name: bench-upstream } }]`
    : mode === 'oauth2'
      ? `, auth: { type: oauth2, oauth2: { grantType: client_credentials, issuer: "${process.env.BENCH_ISSUER}", clientId: bench, clientSecretRef: { name: bench-upstream }, scopes: [lookup], resource: "https://bench.example.com" } }`
      : mode === 'token_exchange'
        ? `, auth: { type: oauth2, oauth2: { grantType: token_exchange, issuer: "${process.env.BENCH_ISSUER}", clientId: bench, clientSecretRef: { name: bench-upstream }, scopes: [lookup], resource: "https://bench.example.com" } }`
        : ''
// token_exchange: the bench IdP is a trusted IdentityProvider, and the agent calls for its person.
const identityProvider =
  mode === 'token_exchange'
    ? `---
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: bench-idp }
spec: { issuer: "${process.env.BENCH_ISSUER}", audiences: [toolroom-bench] }
`
    : ''
await applyManifestText(
  `${mode === 'bearer' ? secret('Bearer bench-static-token') : mode === 'oauth2' || mode === 'token_exchange' ? secret('bench-client-secret') : ''}apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: read_only }
spec: { level: read_only, requiresApproval: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: bench, namespace: default }
spec: { endpoint: "${upstream}"${auth} }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: bench-agent, namespace: default }
spec: { languageTools: [bench]${process.env.BENCH_RATE_LIMIT === '1' ? ', rateLimit: { callsPerMinute: 1000000, callsPerDay: 1000000 }' : ''} }
${policies}${identityProvider}`,
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
console.log(JSON.stringify({ token: mode === 'token_exchange' ? await actForPerson(token) : token }))

/** The agent's tro_ token for the bench IdP's person: token exchange at Toolroom, in this process. */
async function actForPerson(agentToken: string): Promise<string> {
  const gateway = `http://127.0.0.1:${process.env.GATEWAY_PORT}`
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: process.env.BENCH_PERSON_TOKEN!,
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    actor_token: agentToken,
    actor_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    resource: `${gateway}/mcp`,
  })
  const answer = await exchangeToken(new Request(`${gateway}/api/auth/oauth2/token`, { method: 'POST', body }))
  const json = (await answer.json()) as { access_token?: string }
  if (!json.access_token) throw new Error(`token exchange refused: ${JSON.stringify(json)}`)
  return json.access_token
}
await prisma.$disconnect()
