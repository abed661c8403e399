import { beforeAll, describe, expect, it } from 'vitest'
import { agentConfigRoute, fleetRoutes } from '@/lib/api/fleet-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { applyManifest, call, resetDatabase, storeDiscoveredTools, yaml } from './helpers'

const DIGEST = `sha256:${'ab'.repeat(32)}`
const UNIT_DIGEST = `sha256:${'cd'.repeat(32)}`
const agents = resourceRoutes('Agent')
const units = resourceRoutes('Unit')
const agentFleet = fleetRoutes('Agent')
const unitFleet = fleetRoutes('Unit')

const tool = (name: string, extra = '', namespace = 'support') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  type: function
  description: ${name} does its job
  inputSchema: { type: object }
${extra}`

const manifest = [
  yaml`
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: financial }
spec: { level: financial, requiresApproval: true, rateLimit: { callsPerMinute: 5 } }
---
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: read_only }
spec: { level: read_only, requiresApproval: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: zendesk, namespace: support }
spec: { tools: [zendesk.create_ticket, zendesk.search] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: github, namespace: support }
spec: { languageTool: github-mcp }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: github-mcp, namespace: support }
spec: { endpoint: "http://127.0.0.1:4801/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: docs, namespace: support }
spec: { image: "registry.local/docs-mcp:1.2", port: 9000 }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: support, namespace: support }
spec:
  connectors: [zendesk]
  grants: [billing.refund]
  toggles: { zendesk.search: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: tier1, namespace: support }
spec:
  parent: support
  image: "registry.local/tier1-runtime@${UNIT_DIGEST}"
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: triage, namespace: support }
spec:
  unit: tier1
  image: "registry.local/triage@${DIGEST}"
  endpoint: "http://127.0.0.1:8999"
  languageTools: [docs]
  connectors: [github, nonexistent]
  grants: [acme.lookup, missing.tool]
  toggles: { zendesk.search: true }
`,
  tool('zendesk.create_ticket', '  sideEffects: { level: external_write, requiresApproval: true }'),
  tool('zendesk.search', '  sideEffects: { level: read_only }'),
  tool('billing.refund', '  sideEffects: { level: financial }\n  safety: { allowedAgents: [escalation] }'),
  tool('acme.lookup', '  sideEffects: { level: read_only }'),
].join('\n---\n')

let triageId: string

beforeAll(async () => {
  await resetDatabase()
  await applyManifest(manifest)
  // What MCP discovery would have stored (tools/list entries with annotations).
  await storeDiscoveredTools('support', 'github-mcp', [
    {
      name: 'create-issue',
      description: 'Open an issue',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
  ])
  await storeDiscoveredTools('support', 'docs', [
    { name: 'searchDocs', description: 'Search the docs', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ])
  triageId = (await prisma.agent.findFirstOrThrow({ where: { name: 'triage' } })).id
})

const byName = (list: { name: string; reason?: string }[], name: string) => list.find((t) => t.name === name)

describe('image tools upload', () => {
  it('stores a valid tools manifest with the digest of the pinned image, in declaration order', async () => {
    const res = await call(agentFleet.putImageTools, `/api/v1/agents/${triageId}/image-tools`, {
      method: 'PUT',
      params: { id: triageId },
      body: {
        tools: [
          { name: 'acme.timestamp', description: 'Returns the current UTC timestamp.', inputSchema: { type: 'object', properties: {} } },
          {
            name: 'acme.echo',
            description: 'Echoes the input string back.',
            inputSchema: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
          },
          { name: 'acme.lookup', description: 'Image version of lookup', inputSchema: { type: 'object' } },
        ],
      },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.digest).toBe(DIGEST)
    expect(res.json.source).toBe('upload')
    expect(res.json.tools.map((t: { name: string }) => t.name)).toEqual(['acme.timestamp', 'acme.echo', 'acme.lookup'])
  })

  it('refuses a manifest with bad entries, naming each, and keeps the previous cache', async () => {
    const res = await call(agentFleet.putImageTools, `/api/v1/agents/${triageId}/image-tools`, {
      method: 'PUT',
      params: { id: triageId },
      body: {
        tools: [
          { name: 'Acme.Echo', description: 'x', inputSchema: { type: 'object' } },
          { name: 'toolroom.echo', description: 'x', inputSchema: { type: 'object' } },
          { name: 'zendesk.echo', description: 'x', inputSchema: { type: 'object' } },
          { name: 'acme.ok', description: 'x', inputSchema: { type: 'object' } },
          { name: 'acme.ok', description: 'x', inputSchema: { type: 'object' } },
          { name: 'acme.schema', description: 'x', inputSchema: { type: 'array' } },
        ],
      },
    })
    expect(res.status).toBe(422)
    expect(res.json.errors.map((e: { field: string; rule: string }) => `${e.field} ${e.rule}`)).toEqual([
      'tools[0].name canonical-id',
      'tools[1].name reserved-namespace',
      'tools[2].name reserved-namespace',
      'tools[4].name duplicate',
      'tools[5].inputSchema json-schema',
    ])
    const cached = await call(agentFleet.getImageTools, `/api/v1/agents/${triageId}/image-tools`, { params: { id: triageId } })
    expect(cached.json.tools).toHaveLength(3)
  })

  it('refuses a digest that does not match the pinned image', async () => {
    const res = await call(agentFleet.putImageTools, `/api/v1/agents/${triageId}/image-tools`, {
      method: 'PUT',
      params: { id: triageId },
      body: { digest: `sha256:${'ef'.repeat(32)}`, tools: [] },
    })
    expect(res.status).toBe(422)
    expect(res.json.errors[0]).toMatchObject({ field: 'digest', rule: 'mismatch' })
  })
})

describe('GET /api/v1/agents/{id}', () => {
  it('includes the effective tools with provenance, inheritance and policy', async () => {
    const res = await call(agents.get, `/api/v1/agents/${triageId}`, { params: { id: triageId } })
    expect(res.status).toBe(200)
    const tools = res.json.effectiveTools
    expect(byName(tools, 'toolroom.list_tools')).toMatchObject({ provenance: 'platform', state: 'enabled' })
    expect(byName(tools, 'zendesk.create_ticket')).toMatchObject({
      provenance: 'connector:zendesk',
      inheritedFromUnit: 'support',
      requiresApproval: true,
      approvalSource: 'tool',
    })
    // disabled on the unit, enabled again on the agent
    expect(byName(tools, 'zendesk.search')).toMatchObject({ state: 'enabled', reason: 'enabled by a toggle on agent "triage"' })
    expect(byName(tools, 'github.create_issue')).toMatchObject({
      provenance: 'connector:github',
      inheritedFromUnit: null,
      upstreamName: 'create-issue',
      annotations: { readOnly: false, destructive: false, openWorld: true },
    })
    expect(byName(tools, 'docs.search_docs')).toMatchObject({
      provenance: 'mcp:docs',
      sideEffects: { level: 'read_only', levelSource: 'annotations' },
      requiresApproval: false,
    })
    expect(byName(tools, 'acme.echo')).toMatchObject({ provenance: `image:${DIGEST}`, sideEffects: { level: 'external_write', levelSource: 'default' } })
    expect(byName(tools, 'acme.lookup')).toMatchObject({ provenance: 'grant', state: 'enabled' })
    expect(byName(tools, 'billing.refund')).toBeUndefined()
    expect(res.json.unresolved.map((u: { reference: string }) => u.reference).sort()).toEqual(['missing.tool', 'nonexistent'])
    // tier order: platform, connector, image, mcp, grant
    const tiers = tools.map((t: { tier: string }) => t.tier)
    expect(tiers).toEqual(
      [...tiers].sort(
        (a: string, b: string) => ['platform', 'connector', 'image', 'mcp', 'grant'].indexOf(a) - ['platform', 'connector', 'image', 'mcp', 'grant'].indexOf(b),
      ),
    )
  })

  it('explains exclusions with ?include=excluded', async () => {
    const res = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?include=excluded`, { params: { id: triageId } })
    const excluded = res.json.excluded
    expect(byName(excluded, 'acme.lookup')).toMatchObject({ provenance: `image:${DIGEST}`, state: 'shadowed', shadowedBy: 'grant' })
    expect(byName(excluded, 'billing.refund')).toMatchObject({ state: 'denied', inheritedFromUnit: 'support' })
    expect(byName(excluded, 'billing.refund')!.reason).toMatch(/allowedAgents/)
    const plain = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools`, { params: { id: triageId } })
    expect(plain.json.excluded).toBeUndefined()
    const bad = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?include=everything`, { params: { id: triageId } })
    expect(bad.status).toBe(400)
  })

  it('answers the same set in the same order every time', async () => {
    const a = await call(agents.get, `/api/v1/agents/${triageId}`, { params: { id: triageId } })
    const b = await call(agents.get, `/api/v1/agents/triage?namespace=support`, { params: { id: 'triage' } })
    expect(b.json.effectiveTools).toEqual(a.json.effectiveTools)
  })

  it('serves the runtime config.yaml tools block: the gateway only, the servers behind it', async () => {
    const res = await call(agentConfigRoute, `/api/v1/agents/${triageId}/config.yaml`, { params: { id: triageId } })
    expect(res.status).toBe(200)
    expect(res.contentType).toBe('application/yaml')
    expect(res.text).toBe('tools:\n  toolroom:\n    endpoint: http://toolroom.test/mcp\n    protocol: mcp\n')
  })
})

describe('GET /api/v1/units/{id}', () => {
  it('includes the unit’s own image tools, which its agents never inherit', async () => {
    const unit = await prisma.unit.findFirstOrThrow({ where: { name: 'tier1' } })
    const upload = await call(unitFleet.putImageTools, `/api/v1/units/${unit.id}/image-tools`, {
      method: 'PUT',
      params: { id: unit.id },
      body: { tools: [{ name: 'tier1.handoff', description: 'Hand a conversation to tier 2', inputSchema: { type: 'object' } }] },
    })
    expect(upload.status).toBe(200)
    const res = await call(units.get, `/api/v1/units/${unit.id}`, { params: { id: unit.id } })
    expect(byName(res.json.effectiveTools, 'tier1.handoff')).toMatchObject({ provenance: `image:${UNIT_DIGEST}` })
    expect(byName(res.json.effectiveTools, 'zendesk.create_ticket')).toMatchObject({ inheritedFromUnit: 'support' })
    // allowedAgents is checked per agent, not for the unit
    expect(byName(res.json.effectiveTools, 'billing.refund')).toMatchObject({
      state: 'enabled',
      requiresApproval: true,
      rateLimit: { callsPerMinute: 5, callsPerDay: null },
    })
    const agent = await call(agents.get, `/api/v1/agents/${triageId}`, { params: { id: triageId } })
    expect(byName(agent.json.effectiveTools, 'tier1.handoff')).toBeUndefined()
  })
})

describe('reverse lookups', () => {
  it('lists the units and agents bound to a connector', async () => {
    const boundUnits = await call(units.list, '/api/v1/units?connector=zendesk')
    expect(boundUnits.json.items.map((u: { metadata: { name: string } }) => u.metadata.name)).toEqual(['support'])
    const boundAgents = await call(agents.list, '/api/v1/agents?connector=github')
    expect(boundAgents.json.items.map((a: { metadata: { name: string } }) => a.metadata.name)).toEqual(['triage'])
    expect((await call(agents.list, '/api/v1/agents?connector=zendesk')).json.items).toEqual([])
  })
})

describe('safety.allowedAgents across namespaces', () => {
  it('reads a bare name in the tool’s namespace: an agent of that name elsewhere is denied, namespace/* lets a namespace in', async () => {
    await applyManifest(
      [
        tool('vault.open', '  safety: { allowedAgents: [opener, trusted/*] }\n', 'vault'),
        ...[
          ['vault', 'opener'],
          ['intruders', 'opener'],
          ['trusted', 'anyone'],
          ['other', 'anyone'],
        ].map(
          ([namespace, name]) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: ${namespace} }
spec: { grants: [vault/vault.open] }
`,
        ),
      ].join('---\n'),
    )
    const stateFor = async (namespace: string, name: string) => {
      const { id } = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } })
      const res = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools?include=excluded`, { params: { id } })
      return [...res.json.effectiveTools, ...res.json.excluded].find((t: { name: string }) => t.name === 'vault.open')
    }
    expect(await stateFor('vault', 'opener')).toMatchObject({ state: 'enabled' })
    expect(await stateFor('trusted', 'anyone')).toMatchObject({ state: 'enabled' })
    expect(await stateFor('intruders', 'opener')).toMatchObject({ state: 'denied', reason: expect.stringContaining('a bare name means namespace "vault"') })
    expect(await stateFor('other', 'anyone')).toMatchObject({ state: 'denied' })
  })
})
