// "Agents with this tool" (GET /api/v1/tools/{id}/agents): every agent a Tool reaches, by a grant or
// a connector, on itself or through its units, with the state its own effective set gives the Tool
// there; pages, filters, and hostile queries.
import { beforeAll, describe, expect, it } from 'vitest'
import { explainRoutes } from '@/lib/api/explain-routes'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { prisma } from '@/lib/db'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { registryReader } from '@/lib/effective-tools/registry-reader'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { Row } from '@/lib/resources/kind-adapters'
import { applyManifest, call, resetDatabase, storeDiscoveredTools, yaml } from './helpers'

const MANIFEST = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: x.search, namespace: awt }
spec:
  type: function
  description: Searches
  inputSchema: { type: object }
  safety: { allowedAgents: [a1, a2, s1, other/o1] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: x.search, namespace: other }
spec: { type: function, description: The other namespace's search, inputSchema: { type: object } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: xc.lookup, namespace: awt }
spec: { type: function, description: Listed by connector xc, inputSchema: { type: object } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: xc, namespace: awt }
spec: { tools: [xc.lookup] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: top, namespace: awt }
spec: { grants: [x.search] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: team, namespace: awt }
spec: { parent: top, connectors: [xc] }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: x-srv, namespace: awt }
spec: { endpoint: "http://127.0.0.1:9/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: a1, namespace: awt }
spec: { unit: team, languageTools: [x-srv] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: a2, namespace: awt }
spec: { unit: team, toggles: { x.search: false } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: a3, namespace: awt }
spec: { unit: team }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: s1, namespace: awt }
spec: { grants: [other/x.search, x.search] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: loner, namespace: awt }
spec: { description: nothing bound }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: o1, namespace: other }
spec: { grants: [awt/x.search] }
`

const agentsOf = (tool: string, query = '', namespace = 'awt') =>
  call(explainRoutes.agentsWithTool, `/api/v1/tools/${tool}/agents?namespace=${namespace}${query}`, { params: { id: tool } })

beforeAll(async () => {
  await resetDatabase()
  await applyManifest(MANIFEST)
  // As discovery stores a surface: a server whose name is not canonical (its tools are x_srv.*).
  await storeDiscoveredTools('awt', 'x-srv', [{ name: 'search', description: 'Searches upstream' }, { name: 'fetch' }])
})

describe('agents with a Tool', () => {
  it('lists each agent it reaches with the state its effective set gives it, through units and connectors', async () => {
    const res = await agentsOf('x.search')
    expect(res.status).toBe(200)
    const rows = res.json.items.map(
      (i: { agent: { namespace: string; name: string }; state: string; provenance: string; inheritedFromUnit: string | null }) => [
        `${i.agent.namespace}/${i.agent.name}`,
        i.state,
        i.provenance,
        i.inheritedFromUnit,
      ],
    )
    expect(rows).toEqual([
      ['awt/a1', 'enabled', 'grant', 'top'],
      ['awt/a2', 'disabled', 'grant', 'top'],
      ['awt/a3', 'denied', 'grant', 'top'],
      ['awt/s1', 'shadowed', 'grant', null],
      ['other/o1', 'enabled', 'grant', null],
    ])
    expect(res.json.counts).toEqual({ enabled: 2, disabled: 1, denied: 1, shadowed: 1 })
    const a3 = res.json.items.find((i: { agent: { name: string } }) => i.agent.name === 'a3')
    expect(a3.reason).toMatch(/safety\.allowedAgents/)
    const s1 = res.json.items.find((i: { agent: { name: string } }) => i.agent.name === 's1')
    expect(s1.shadowedBy).toBe('grant')
    // a Tool of the same name elsewhere is another Tool
    expect((await agentsOf('x.search', '', 'other')).json.items.map((i: { agent: { name: string }; state: string }) => `${i.agent.name} ${i.state}`)).toEqual([
      's1 enabled',
    ])
  })

  it("agrees with each agent's own effective set", async () => {
    const items = (await agentsOf('x.search')).json.items as Array<{ agent: { id: string }; state: string; provenance: string }>
    for (const item of items) {
      const own = await call(fleetRoutes('Agent').effectiveTools, `/api/v1/agents/${item.agent.id}/effective-tools?include=excluded`, {
        params: { id: item.agent.id },
      })
      const entries = [...own.json.effectiveTools, ...own.json.excluded].filter(
        (e: { name: string; source: { namespace: string } }) => e.name === 'x.search' && e.source.namespace === 'awt',
      )
      expect(entries.map((e: { state: string }) => e.state)).toContain(item.state)
    }
  })

  it('loads, for one name, exactly what resolves that name as the whole input does', async () => {
    for (const row of (await prisma.agent.findMany()) as unknown as Row[]) {
      const whole = resolveEffectiveTools(await loadResolverInput('Agent', row))
      const entries = [...whole.tools, ...whole.excluded]
      const names = new Set(entries.map((e) => e.name))
      expect(names.size).toBeGreaterThanOrEqual(5)
      if (row.name === 'a1') expect(names).toContain('x_srv.search')
      for (const name of names) {
        const alone = resolveEffectiveTools(await loadResolverInput('Agent', row, registryReader(), name))
        expect([...alone.tools, ...alone.excluded]).toEqual(entries.filter((e) => e.name === name))
      }
    }
  })

  it('finds agents a connector listing the Tool reaches through their unit', async () => {
    const res = await agentsOf('xc.lookup')
    expect(res.json.items.map((i: { agent: { name: string }; state: string; provenance: string }) => `${i.agent.name} ${i.state} ${i.provenance}`)).toEqual([
      'a1 enabled connector:xc',
      'a2 enabled connector:xc',
      'a3 enabled connector:xc',
    ])
  })

  it('filters by state and pages with a cursor', async () => {
    expect((await agentsOf('x.search', '&state=enabled')).json.items.map((i: { agent: { name: string } }) => i.agent.name)).toEqual(['a1', 'o1'])
    const first = await agentsOf('x.search', '&limit=2')
    expect(first.json.items.map((i: { agent: { name: string } }) => i.agent.name)).toEqual(['a1', 'a2'])
    expect(first.json.nextCursor).toEqual(expect.any(String))
    const second = await agentsOf('x.search', `&limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`)
    expect(second.json.items.map((i: { agent: { name: string } }) => i.agent.name)).toEqual(['a3', 's1'])
    const third = await agentsOf('x.search', `&limit=2&cursor=${encodeURIComponent(second.json.nextCursor)}`)
    expect(third.json.items.map((i: { agent: { name: string } }) => i.agent.name)).toEqual(['o1'])
    expect(third.json.nextCursor).toBeNull()
  })

  it('answers an empty list for a Tool no agent has, and problems for what is not a Tool or a query', async () => {
    await prisma.agent.deleteMany({ where: { namespace: 'awt', name: 's1' } })
    const none = await agentsOf('x.search', '', 'other')
    expect(none.json).toEqual({ items: [], nextCursor: null, counts: { enabled: 0, disabled: 0, denied: 0, shadowed: 0 } })
    expect((await agentsOf('no.such_tool')).status).toBe(404)
    const badState = await agentsOf('x.search', '&state=maybe')
    expect(badState.status).toBe(400)
    expect(badState.json.errors[0]).toMatchObject({ field: 'state', rule: 'enum' })
    const forged = await agentsOf('x.search', `&cursor=${Buffer.from(JSON.stringify(['awt', 'a1', 'not-a-uuid'])).toString('base64url')}`)
    expect(forged.status).toBe(400)
    expect(forged.json.errors[0]).toMatchObject({ field: 'cursor', rule: 'cursor' })
    const nul = await agentsOf('x.search', '&state=enab%00led')
    expect(nul.status).toBe(422)
    expect((await agentsOf('x.search', '&limit=100000')).status).toBe(400)
    expect((await agentsOf('x'.repeat(300))).status).toBe(400)
  })
})
