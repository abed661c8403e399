// A dry run warns about what would be written but fail once it is (README, "GitOps"): a host that
// does not resolve, a Secret or MCP server that does not exist. Each warning is what the resource's
// status says after the real apply, so the dry run and the status cannot disagree.
import { beforeEach, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { call, resetDatabase, yaml } from './helpers'

const apply = (body: string, query = '') => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body })
const tools = resourceRoutes('Tool')

type Warning = { index: number; kind: string; namespace: string; name: string; field: string; reason: string; message: string }

const restTool = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: billing.lookup, namespace: aw }
spec:
  type: rest
  description: Looks an invoice up
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  endpoint:
    method: GET
    url: "http://billing.no-such-host.invalid/invoices"
    auth: { type: bearer, secretRef: { name: billing-token } }
`
const secret = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: billing-token, namespace: aw }
spec: { type: bearer, stringData: { token: sk-test-1234 } }
`
const mcpTool = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: tickets.search, namespace: aw }
spec:
  type: mcp
  description: Searches tickets
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  mcpServerRef: { name: tickets }
`
const server = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: tickets, namespace: aw }
spec:
  endpoint: "http://tickets.no-such-host.invalid/mcp"
  authHeaders: [{ name: X-Api-Key, secretRef: { name: tickets-key } }]
`

const warningsOf = async (manifest: string): Promise<Warning[]> => {
  const res = await apply(manifest, '?dryRun=true')
  expect(res.status, res.text).toBe(200)
  return res.json.warnings
}
const brief = (warnings: Warning[]) => warnings.map((w) => `${w.index} ${w.kind} ${w.name} ${w.field} ${w.reason}`)

beforeEach(resetDatabase)

describe('dry-run warnings', () => {
  it('name an unresolvable host and a missing Secret of a new REST tool, and the status after the apply says the same', async () => {
    const warnings = await warningsOf(restTool)
    expect(brief(warnings)).toEqual([
      '0 Tool billing.lookup spec.endpoint.auth.secretRef SecretNotFound',
      '0 Tool billing.lookup spec.endpoint.url HostNotResolved',
    ])
    expect(warnings[0].message).toContain('Secret "aw/billing-token" does not exist')
    expect(warnings[1].message).toContain('billing.no-such-host.invalid does not resolve')

    const real = await apply(restTool)
    expect(real.status, real.text).toBe(200)
    expect(real.json.warnings).toBeUndefined()
    const stored = await call(tools.get, '/api/v1/tools/billing.lookup?namespace=aw', { params: { id: 'billing.lookup' } })
    expect(stored.json.status.phase).toBe('Failed')
    const failing = (stored.json.status.conditions as { status: string; reason: string }[]).filter((c) => c.status === 'False').map((c) => c.reason)
    expect(failing).toEqual(warnings.map((w) => w.reason))
  })

  it('count a Secret the manifest itself writes as there', async () => {
    expect(brief(await warningsOf(`${secret}---\n${restTool}`))).toEqual(['1 Tool billing.lookup spec.endpoint.url HostNotResolved'])
  })

  it("name an MCP tool's unknown server; a server in the manifest is not known to fail yet, but its own host and Secret are warned about", async () => {
    expect(brief(await warningsOf(mcpTool))).toEqual(['0 Tool tickets.search spec.mcpServerRef.name ServerNotFound'])
    expect(brief(await warningsOf(`${mcpTool}---\n${server}`))).toEqual([
      '1 LanguageTool tickets spec.authHeaders[0].secretRef.name SecretNotFound',
      '1 LanguageTool tickets spec.endpoint HostNotResolved',
    ])
  })

  it('leave out documents the apply would not change, and valid manifests with nothing to fear have none', async () => {
    expect((await apply(`${secret}---\n${restTool}`)).status).toBe(200)
    expect(await warningsOf(`${secret}---\n${restTool}`)).toEqual([])
    expect(await warningsOf(secret.replace('sk-test-1234', 'sk-test-5678'))).toEqual([])
  })
})
