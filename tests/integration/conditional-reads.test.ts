// Conditional reads (docs/design/resource-model.md#conditional-reads): registry answers carry a weak ETag
// derived from the registry state, a matching If-None-Match is answered 304 with no body and without
// computing the answer, and the tag moves when anything the answer is made of does.
import { beforeAll, describe, expect, it } from 'vitest'
import { agentConfigRoute, fleetRoutes } from '@/lib/api/fleet-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { metricsRegistry } from '@/lib/observability/metrics'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { reloadConfig } from '@/lib/config'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { until } from '../support/until'
import { applyManifest, call, issueAgentCredential, resetDatabase, storeDiscoveredTools, yaml } from './helpers'
import { insertCalls, resetCalls } from './stats-fixtures'

const agents = resourceRoutes('Agent')
const tools = resourceRoutes('Tool')
const secrets = resourceRoutes('Secret')
const agentFleet = fleetRoutes('Agent')

const manifest = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.lookup, namespace: etags }
spec: { type: function, description: Looks things up, inputSchema: { type: object }, sideEffects: { level: read_only } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: docs, namespace: etags }
spec: { endpoint: "http://127.0.0.1:4801/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: triage, namespace: etags }
spec: { grants: [acme.lookup], languageTools: [docs] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: bystander, namespace: etags }
spec: {}
`

let triageId: string
const effective = (headers: Record<string, string> = {}, query = '') =>
  call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools${query}`, { params: { id: triageId }, headers })

/** The per-process lookups counted under `cache`, by result. */
async function lookups(cache: string): Promise<{ hit: number; miss: number }> {
  const metric = await metricsRegistry().getSingleMetric('toolroom_cache_lookups_total')?.get()
  const count = (result: string) => metric?.values.find((v) => v.labels.cache === cache && v.labels.result === result)?.value ?? 0
  return { hit: count('hit'), miss: count('miss') }
}

beforeAll(async () => {
  await resetDatabase()
  // Tags exist only while this process hears the registry's change announcements.
  await until('the registry change listener', () => registryEpoch() !== null)
  await applyManifest(manifest)
  triageId = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'etags', name: 'triage' } })).id
})

describe('ETag on every registry answer', () => {
  it('tags effective tools, config.yaml, a resource, a list and image tools with a weak validator for private caches', async () => {
    const answers = [
      await effective(),
      await call(agentConfigRoute, `/api/v1/agents/${triageId}/config.yaml`, { params: { id: triageId } }),
      await call(agents.get, `/api/v1/agents/${triageId}`, { params: { id: triageId } }),
      await call(tools.list, '/api/v1/tools?namespace=etags'),
      await call(agentFleet.getImageTools, `/api/v1/agents/${triageId}/image-tools`, { params: { id: triageId } }),
    ]
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200)
      expect(answer.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/)
      expect(answer.headers.get('cache-control')).toBe('private, no-cache')
    }
    expect(new Set(answers.map((a) => a.headers.get('etag'))).size).toBe(answers.length)
  })

  it('gives different tags to different representations and queries of one address', async () => {
    const json = await call(tools.list, '/api/v1/tools?namespace=etags')
    const asYaml = await call(tools.list, '/api/v1/tools?namespace=etags', { headers: { accept: 'application/yaml' } })
    const otherQuery = await call(tools.list, '/api/v1/tools?namespace=etags&limit=5')
    expect(asYaml.contentType).toContain('yaml')
    expect(asYaml.headers.get('vary')).toBe('Accept')
    expect(new Set([json, asYaml, otherQuery].map((a) => a.headers.get('etag'))).size).toBe(3)
    expect((await effective({}, '?include=excluded')).headers.get('etag')).not.toBe((await effective()).headers.get('etag'))
    // The same address read again under the same state: the same tag.
    expect((await call(tools.list, '/api/v1/tools?limit=5&namespace=etags')).headers.get('etag')).toBe(otherQuery.headers.get('etag'))
  })

  it("gives an agent's own credential another config.yaml tag than a person's", async () => {
    const agentToken = await issueAgentCredential(triageId, 'etags')
    const url = `/api/v1/agents/${triageId}/config.yaml`
    const byAdmin = await call(agentConfigRoute, url, { params: { id: triageId } })
    const byAgent = await call(agentConfigRoute, url, { params: { id: triageId }, as: { token: agentToken } })
    expect(byAgent.status, byAgent.text).toBe(200)
    expect(byAgent.headers.get('etag')).not.toBe(byAdmin.headers.get('etag'))
    const crossed = await call(agentConfigRoute, url, {
      params: { id: triageId },
      as: { token: agentToken },
      headers: { 'if-none-match': byAdmin.headers.get('etag')! },
    })
    expect(crossed.status).toBe(200)
  })

  it('leaves Secrets untagged: their table announces no change', async () => {
    expect((await call(secrets.list, '/api/v1/secrets')).headers.get('etag')).toBeNull()
  })
})

describe('If-None-Match', () => {
  it('answers 304 with no body and the tag when it matches, without computing the answer', async () => {
    const first = await effective()
    const etag = first.headers.get('etag')!
    const answersBefore = await lookups('effective_tools_answer')
    const conditionalBefore = await lookups('conditional_read')

    const again = await effective({ 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('private, no-cache')
    // The answer cache was not even asked: nothing was computed or serialized.
    expect(await lookups('effective_tools_answer')).toEqual(answersBefore)
    expect((await lookups('conditional_read')).hit).toBe(conditionalBefore.hit + 1)
  })

  it('matches one tag of a list, and compares weakly (a strong form of the tag matches too)', async () => {
    const etag = (await effective()).headers.get('etag')!
    expect((await effective({ 'if-none-match': `"old", ${etag} , W/"older"` })).status).toBe(304)
    expect((await effective({ 'if-none-match': etag.slice(2) })).status).toBe(304)
    expect((await effective({ 'if-none-match': '"old", W/"older"' })).status).toBe(200)
  })

  it('answers * with 304 when the answer exists, and the 404 when it does not', async () => {
    expect((await effective({ 'if-none-match': '*' })).status).toBe(304)
    const missing = await call(agentFleet.effectiveTools, '/api/v1/agents/nobody/effective-tools', {
      params: { id: 'nobody' },
      headers: { 'if-none-match': '*' },
    })
    expect(missing.status).toBe(404)
  })

  it('ignores a malformed If-None-Match: the full answer, not an error', async () => {
    const etag = (await effective()).headers.get('etag')!
    for (const malformed of ['garbage', `${etag}, garbage`, '"unterminated', 'W/', '*, "a"', ',', `"a"b"`]) {
      const answer = await effective({ 'if-none-match': malformed })
      expect(answer.status, malformed).toBe(200)
      expect(answer.json.effectiveTools.length, malformed).toBeGreaterThan(0)
    }
  })
})

describe('the tag moves with what the answer is made of', () => {
  it('an Apply that changes the agent gives new effective tools under a new tag', async () => {
    const before = await effective()
    const old = before.headers.get('etag')!
    await applyManifest(
      manifest.replace(
        'metadata: { name: triage, namespace: etags }\nspec: { grants: [acme.lookup], languageTools: [docs] }',
        'metadata: { name: triage, namespace: etags }\nspec: { languageTools: [docs] }',
      ),
    )
    const after = await effective({ 'if-none-match': old })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(old)
    expect(after.json.effectiveTools.map((t: { name: string }) => t.name)).not.toContain('acme.lookup')
  })

  it("a discovery result (another process's write) gives the agent a new tag once it is announced", async () => {
    const old = (await effective()).headers.get('etag')!
    await storeDiscoveredTools('etags', 'docs', [{ name: 'searchDocs', description: 'Search the docs', inputSchema: { type: 'object' } }])
    const after = await until('the new discovery result', async () => {
      const answer = await effective({ 'if-none-match': old })
      return answer.status === 200 && answer
    })
    expect(after.headers.get('etag')).not.toBe(old)
    expect(after.json.effectiveTools.map((t: { name: string }) => t.name)).toContain('docs.search_docs')
  })

  it('a statistics rollup, which announces no registry change, gives a Tool its new totals under a new tag', async () => {
    const previous = process.env.TOOLROOM_STATS_CACHE_SECONDS
    process.env.TOOLROOM_STATS_CACHE_SECONDS = '0' // re-read the statistics version on every request
    reloadConfig()
    try {
      await resetCalls()
      const tool = await prisma.tool.findFirstOrThrow({ where: { namespace: 'etags', name: 'acme.lookup' } })
      const get = (headers: Record<string, string> = {}) => call(tools.get, `/api/v1/tools/${tool.id}`, { params: { id: tool.id }, headers })
      const before = await get()
      expect(before.json.status.totalCalls7d).toBe(0)
      await insertCalls({ count: 3, tool: 'acme.lookup', toolKey: 'Tool/etags/acme.lookup', outcome: 'succeeded' })
      await rollupCallStats()
      const after = await get({ 'if-none-match': before.headers.get('etag')! })
      expect(after.status).toBe(200)
      expect(after.json.status.totalCalls7d).toBe(3)
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    } finally {
      if (previous === undefined) delete process.env.TOOLROOM_STATS_CACHE_SECONDS
      else process.env.TOOLROOM_STATS_CACHE_SECONDS = previous
      reloadConfig()
      await resetCalls()
    }
  })
})
