// Changes touch only what they change (docs/design/effective-tools.md#caching): a registry change
// drops the cached answers of the agents and units it touched and keeps the others, whether this
// process wrote it or another one did (its NOTIFY names what it touched); a change of fleet-wide reach
// drops them all; the change feed looks only at the watched subjects a change may have touched.
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { watchToolList } from '@/lib/gateway/tool-list-changes'
import { metricsRegistry } from '@/lib/observability/metrics'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { until } from '../support/until'
import { applyManifest, call, resetDatabase, testAdminToken, yaml } from './helpers'

const agentFleet = fleetRoutes('Agent')

const manifest = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.lookup, namespace: scoped }
spec: { type: function, description: Looks things up, inputSchema: { type: object }, sideEffects: { level: read_only } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.update, namespace: scoped }
spec: { type: function, description: Updates things, inputSchema: { type: object }, sideEffects: { level: read_only } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: north, namespace: scoped }
spec: {}
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: north-team, namespace: scoped }
spec: { parent: north }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: south, namespace: scoped }
spec: { grants: [acme.lookup] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: northerner, namespace: scoped }
spec: { unit: north-team }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: southerner, namespace: scoped }
spec: { unit: south }
`

const ids: Record<string, string> = {}

/** Another process's database session: its writes reach this process through the NOTIFY alone. */
let otherProcess: pg.Client

/** This process's lookups counted under `cache`, by result. */
async function lookups(cache: string): Promise<{ hit: number; miss: number }> {
  const metric = await metricsRegistry().getSingleMetric('toolroom_cache_lookups_total')?.get()
  const count = (result: string) => metric?.values.find((v) => v.labels.cache === cache && v.labels.result === result)?.value ?? 0
  return { hit: count('hit'), miss: count('miss') }
}

/** The acme tools of `agent`'s effective set, and whether the answer came from the answer cache. */
async function effectiveTools(agent: string): Promise<{ names: string[]; cached: boolean }> {
  const before = await lookups('effective_tools_answer')
  const answer = await call(agentFleet.effectiveTools, `/api/v1/agents/${ids[agent]}/effective-tools`, { params: { id: ids[agent] } })
  expect(answer.status, answer.text).toBe(200)
  const after = await lookups('effective_tools_answer')
  expect(after.hit + after.miss - before.hit - before.miss).toBe(1)
  const names = (answer.json.effectiveTools as { name: string }[])
    .map((t) => t.name)
    .filter((n) => n.startsWith('acme.'))
    .sort()
  return { names, cached: after.hit > before.hit }
}

/** Runs `sql` as another process would, and waits until this process has heard of it. */
async function writeElsewhere(sql: string): Promise<void> {
  const epoch = registryEpoch()!
  const { rowCount } = await otherProcess.query(sql)
  expect(rowCount).toBe(1)
  await until('the change announced', () => (registryEpoch() ?? 0) > epoch)
}

const setUnitGrants = (unit: string, grants: string[]) =>
  `UPDATE "Unit" SET spec = jsonb_set(spec::jsonb, '{grants}', '${JSON.stringify(grants)}'::jsonb)::json, generation = generation + 1 WHERE namespace = 'scoped' AND name = '${unit}'`

beforeAll(async () => {
  await resetDatabase()
  await until('the registry change listener', () => registryEpoch() !== null)
  await applyManifest(manifest)
  for (const name of ['northerner', 'southerner']) ids[name] = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'scoped', name } })).id
  otherProcess = new pg.Client({ connectionString: config().DATABASE_URL })
  await otherProcess.connect()
})

afterAll(async () => {
  await otherProcess?.end()
})

describe('a change drops the cached answers it touched, and only those', () => {
  it("keeps another unit's answers when another process changes a unit, and drops those below it", async () => {
    await effectiveTools('northerner')
    await effectiveTools('southerner')
    expect(await effectiveTools('northerner')).toEqual({ names: [], cached: true })
    expect(await effectiveTools('southerner')).toEqual({ names: ['acme.lookup'], cached: true })

    // `north` is the parent of northerner's unit.
    await writeElsewhere(setUnitGrants('north', ['acme.update']))
    expect(await effectiveTools('southerner')).toEqual({ names: ['acme.lookup'], cached: true })
    expect(await effectiveTools('northerner')).toEqual({ names: ['acme.update'], cached: false })
    expect(await effectiveTools('northerner')).toEqual({ names: ['acme.update'], cached: true })
  })

  it("keeps other agents' answers when this process changes one agent", async () => {
    await effectiveTools('northerner')
    await effectiveTools('southerner')
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: southerner, namespace: scoped }
spec: { unit: south, grants: [acme.update] }
`)
    expect(await effectiveTools('northerner')).toMatchObject({ cached: true })
    expect(await effectiveTools('southerner')).toEqual({ names: ['acme.lookup', 'acme.update'], cached: false })
  })

  it('drops every answer on a change of fleet-wide reach (a Tool, written by another process)', async () => {
    await effectiveTools('northerner')
    await effectiveTools('southerner')
    expect(await effectiveTools('northerner')).toMatchObject({ cached: true })
    await writeElsewhere(`UPDATE "Tool" SET description = 'Looks things up, again' WHERE namespace = 'scoped' AND name = 'acme.lookup'`)
    expect(await effectiveTools('northerner')).toMatchObject({ cached: false })
    expect(await effectiveTools('southerner')).toMatchObject({ cached: false })
  })
})

interface Watching {
  events: string[]
  ended: Promise<void>
  stop: () => void
}
const openWatches: Watching[] = []

/** `?watch=1` on an agent's effective tools: the event types as they arrive. */
async function watchEffectiveTools(agent: string): Promise<Watching> {
  const abort = new AbortController()
  const request = new Request(`http://toolroom.test/api/v1/agents/${ids[agent]}/effective-tools?watch=1`, {
    headers: { authorization: `Bearer ${await testAdminToken()}` },
    signal: abort.signal,
  })
  const response = await agentFleet.effectiveTools(request, { params: Promise.resolve({ id: ids[agent] }) })
  expect(response.status).toBe(200)
  const events: string[] = []
  const reading = async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    const reader = response.body!.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        for (const match of buffer.matchAll(/^event: (\w+)$/gm)) events.push(match[1])
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1)
      }
    } catch {
      // aborted by stop()
    }
  }
  const watching = { events, ended: reading(), stop: () => abort.abort() }
  openWatches.push(watching)
  return watching
}

afterEach(async () => {
  for (const w of openWatches.splice(0)) {
    w.stop()
    await w.ended
  }
})

describe('the change feed looks only at what a change touched', () => {
  it("sends the affected agent's watcher an event, the unaffected one's nothing, and does not work out the unaffected tools/list again", async () => {
    // Watched first, so the feed looks at it before the others after each change.
    const southernerList = watchToolList(ids.southerner, () => {})
    try {
      const southerner = await watchEffectiveTools('southerner')
      const northerner = await watchEffectiveTools('northerner')
      await until('the current sets', () => southerner.events.length === 1 && northerner.events.length === 1)

      // A first change of northerner's unit: by the time northerner hears of it, the feed knows what
      // every subject before it depends on.
      await writeElsewhere(setUnitGrants('north-team', ['acme.lookup']))
      await until("northerner's first change", () => northerner.events.length === 2)
      const listLookups = await lookups('agent_tools')

      await writeElsewhere(setUnitGrants('north', []))
      await until("northerner's second change", () => northerner.events.length === 3)
      expect(northerner.events).toEqual(['ADDED', 'MODIFIED', 'MODIFIED'])
      expect(southerner.events).toEqual(['ADDED'])
      // The gateway's tools/list answer of the unaffected agent was not worked out again.
      expect(await lookups('agent_tools')).toEqual(listLookups)
    } finally {
      southernerList()
    }
  })
})
