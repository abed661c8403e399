// Statistics belong to the tool a call really went to: same-named Tools in two namespaces, tools of
// two LanguageTools of the same name, and two agents' image tools keep figures of their own, in
// Tool.status, in the effective tool sets and in the API. Calls arrive through the real ingest
// endpoint with agent credentials; a unit's figures cover its whole subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { statsRoutes } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { applyManifest, call, resetDatabase, storeDiscoveredTools, yaml } from './helpers'
import { resetCalls } from './stats-fixtures'

const MANIFEST = ['red', 'blue']
  .map(
    (ns) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.lookup, namespace: ${ns} }
spec: { type: function, description: Looks things up in ${ns}, inputSchema: { type: object }, sideEffects: { level: read_only } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: mem0, namespace: ${ns} }
spec: { endpoint: "https://mem0-${ns}.example.com/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: top, namespace: ${ns} }
spec: {}
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: mid, namespace: ${ns} }
spec: { parent: top }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: leaf, namespace: ${ns} }
spec: { parent: mid }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: worker, namespace: ${ns} }
spec: { unit: leaf, grants: [acme.lookup], languageTools: [mem0] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: lead, namespace: ${ns} }
spec: { unit: mid, grants: [acme.lookup] }
---
`,
  )
  .join('')

const tokens: Record<string, string> = {}

async function ingest(agent: string, toolId: string, outcomes: string[], hoursAgo = 1) {
  const startedAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
  const res = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
    method: 'POST',
    body: { calls: outcomes.map((outcome, i) => ({ toolId, outcome, startedAt, latencyMs: 10 + i })) },
    headers: { authorization: `Bearer ${tokens[agent]}` },
  })
  expect(res.status, res.text).toBe(202)
}

beforeAll(async () => {
  // Effective sets take their figures from the stats cache: re-checked on every read here.
  process.env.TOOLROOM_STATS_CACHE_SECONDS = '0'
  reloadConfig()
  await resetDatabase()
  await resetCalls()
  await applyManifest(MANIFEST)
  for (const ns of ['red', 'blue']) {
    // As discovery stores them: the same upstream tool name on both servers, an image tool on each worker.
    await storeDiscoveredTools(ns, 'mem0', [{ name: 'search', description: 'Search memories', inputSchema: { type: 'object' } }])
    await prisma.agent.update({
      where: { namespace_name: { namespace: ns, name: 'worker' } },
      data: { imageTools: [{ name: 'local.run', description: 'Runs inside the agent', inputSchema: { type: 'object' } }], imageDigest: `sha256:${ns}` },
    })
    for (const name of ['worker', 'lead']) {
      const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: ns, name } } })
      const res = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${agent.id}/credentials`, {
        method: 'POST',
        body: { name: 'test' },
        params: { id: agent.id },
      })
      expect(res.status, res.text).toBe(201)
      tokens[`${ns}/${name}`] = res.json.token
    }
  }
  await ingest('red/worker', 'acme.lookup', ['succeeded', 'succeeded', 'failed', 'succeeded'])
  await ingest('red/lead', 'acme.lookup', ['failed', 'succeeded'], 30)
  await ingest('blue/worker', 'acme.lookup', ['succeeded', 'succeeded', 'succeeded'])
  await ingest('red/worker', 'mem0.search', ['succeeded', 'failed'])
  await ingest('blue/worker', 'mem0.search', ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded'])
  await ingest('red/worker', 'local.run', ['succeeded'])
  await ingest('blue/worker', 'local.run', ['failed', 'failed'], 50)
  await rollupCallStats()
})

afterAll(() => {
  delete process.env.TOOLROOM_STATS_CACHE_SECONDS
  reloadConfig()
})

const agentView = async (ns: string, name: string) => {
  const res = await call(resourceRoutes('Agent').get, `/api/v1/agents/${name}?namespace=${ns}`, { params: { id: name } })
  expect(res.status).toBe(200)
  return res.json.effectiveTools as Array<{ name: string; totalCalls7d: number; failureRate7d: number | null }>
}

describe('statistics of same-named tools', () => {
  it("keeps each namespace's Tool apart in Tool.status and in the stats API", async () => {
    const tools = resourceRoutes('Tool')
    const red = await call(tools.get, '/api/v1/tools/acme.lookup?namespace=red', { params: { id: 'acme.lookup' } })
    const blue = await call(tools.get, '/api/v1/tools/acme.lookup?namespace=blue', { params: { id: 'acme.lookup' } })
    expect(red.json.status).toMatchObject({ totalCalls7d: 6, failureRate7d: 2 / 6 })
    expect(blue.json.status).toMatchObject({ totalCalls7d: 3, failureRate7d: 0 })

    const redStats = await call(statsRoutes.tool, '/api/v1/stats/tools/acme.lookup?namespace=red', { params: { id: 'acme.lookup' } })
    expect(redStats.status, redStats.text).toBe(200)
    expect(redStats.json).toMatchObject({ key: 'Tool/red/acme.lookup', totals: { calls: 6, failures: 2 } })
    const blueStats = await call(statsRoutes.tool, `/api/v1/stats/tools/${blue.json.id}`, { params: { id: blue.json.id } })
    expect(blueStats.json.totals).toMatchObject({ calls: 3, failures: 0 })
  })

  it('gives each effective-set entry the figures of its own resolved tool', async () => {
    const stats = (await agentView('red', 'worker')).concat()
    const of = (entries: typeof stats, name: string) => entries.find((t) => t.name === name)
    // The red worker sees red's Tool (its own and its unit colleague's calls), red's mem0 server and its own image.
    expect(of(stats, 'acme.lookup')).toMatchObject({ totalCalls7d: 6, failureRate7d: 2 / 6 })
    expect(of(stats, 'mem0.search')).toMatchObject({ totalCalls7d: 2, failureRate7d: 0.5 })
    expect(of(stats, 'local.run')).toMatchObject({ totalCalls7d: 1, failureRate7d: 0 })
    const blue = await agentView('blue', 'worker')
    expect(of(blue, 'acme.lookup')).toMatchObject({ totalCalls7d: 3, failureRate7d: 0 })
    expect(of(blue, 'mem0.search')).toMatchObject({ totalCalls7d: 5, failureRate7d: 0 })
    expect(of(blue, 'local.run')).toMatchObject({ totalCalls7d: 2, failureRate7d: 1 })
  })

  it('answers any resolved tool by its key, and lists failing tools by resolved tool', async () => {
    const mem0 = await call(statsRoutes.resolvedTool, `/api/v1/stats/tools?key=${encodeURIComponent('LanguageTool/blue/mem0/mem0.search')}`)
    expect(mem0.status, mem0.text).toBe(200)
    expect(mem0.json.totals).toMatchObject({ calls: 5, failures: 0 })
    const image = await call(statsRoutes.resolvedTool, `/api/v1/stats/tools?key=${encodeURIComponent('Agent/blue/worker/local.run')}`)
    expect(image.json.totals).toMatchObject({ calls: 2, failures: 2 })

    const top = await call(statsRoutes.topFailing, '/api/v1/stats/top-failing-tools?limit=10')
    expect(top.json.items).toEqual([
      {
        key: 'Agent/blue/worker/local.run',
        toolId: 'local.run',
        source: { kind: 'Agent', namespace: 'blue', name: 'worker' },
        calls: 2,
        failures: 2,
        refused: 0,
        failureRate: 1,
      },
      {
        key: 'Tool/red/acme.lookup',
        toolId: 'acme.lookup',
        source: { kind: 'Tool', namespace: 'red', name: 'acme.lookup' },
        calls: 6,
        failures: 2,
        refused: 0,
        failureRate: 2 / 6,
      },
      {
        key: 'LanguageTool/red/mem0/mem0.search',
        toolId: 'mem0.search',
        source: { kind: 'LanguageTool', namespace: 'red', name: 'mem0' },
        calls: 2,
        failures: 1,
        refused: 0,
        failureRate: 0.5,
      },
    ])
  })
})

describe('the calls explorer', () => {
  it('lists the calls of one resolved tool', async () => {
    const res = await call(statsRoutes.calls, `/api/v1/calls?toolKey=${encodeURIComponent('Tool/red/acme.lookup')}&limit=50`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.items).toHaveLength(6)
    for (const item of res.json.items) expect(item).toMatchObject({ toolId: 'acme.lookup', toolKey: 'Tool/red/acme.lookup', agentNamespace: 'red' })
    const byId = await call(statsRoutes.calls, '/api/v1/calls?tool=acme.lookup&limit=50')
    expect(byId.json.items).toHaveLength(9)
  })
})

describe('unit statistics', () => {
  it("cover every agent in the unit's subtree, and only that namespace's", async () => {
    const unit = async (ns: string, name: string) =>
      (await call(statsRoutes.unit, `/api/v1/stats/units/${name}?namespace=${ns}`, { params: { id: name } })).json.totals.calls
    // red: worker (unit leaf) made 4 + 2 + 1 calls, lead (unit mid) 2.
    expect(await unit('red', 'leaf')).toBe(7)
    expect(await unit('red', 'mid')).toBe(9)
    expect(await unit('red', 'top')).toBe(9)
    expect(await unit('blue', 'top')).toBe(10)
  })
})

describe('calls recorded before resolved tools were', () => {
  it("get the key the registry tells from the upgrade's migration", async () => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'red', name: 'worker' } } })
    const rows: Array<[string, string]> = [
      ['acme.lookup', 'grant'],
      ['mem0.search', 'mcp:mem0'],
      ['local.run', 'image:sha256:red'],
      ['toolroom.list_tools', 'platform'],
      ['gone.tool', 'grant'],
      ['odd.tool', 'unknown'],
    ]
    const ids: string[] = []
    for (const [toolId, provenance] of rows) {
      const [{ id }] = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
        `INSERT INTO "ToolCall" ("agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", provenance, channel, outcome)
         VALUES ($1::uuid, 'red', 'worker', 'leaf', $2, split_part($2, '.', 1), $3, 'mcp', 'succeeded') RETURNING id`,
        agent.id,
        toolId,
        provenance,
      )
      ids.push(id)
    }
    const migration = await import('node:fs').then((fs) =>
      fs.readFileSync('prisma/migrations/20261123194500_call_stats_by_resolved_tool/migration.sql', 'utf8'),
    )
    const backfill = migration.slice(migration.indexOf('UPDATE "ToolCall"'), migration.indexOf(';', migration.indexOf('UPDATE "ToolCall"')))
    await prisma.$executeRawUnsafe(backfill)
    const keys = await prisma.toolCall.findMany({ where: { id: { in: ids } }, select: { toolId: true, toolKey: true } })
    expect(Object.fromEntries(keys.map((k) => [k.toolId, k.toolKey]))).toEqual({
      'acme.lookup': 'Tool/red/acme.lookup',
      'mem0.search': 'LanguageTool/red/mem0/mem0.search',
      'local.run': 'Agent/red/worker/local.run',
      'toolroom.list_tools': 'Platform/toolroom.list_tools',
      'gone.tool': 'Unresolved/gone.tool',
      'odd.tool': 'Unresolved/odd.tool',
    })
    // Calls recorded with a key keep it.
    expect(await prisma.toolCall.count({ where: { toolKey: null } })).toBe(0)
  })
})
