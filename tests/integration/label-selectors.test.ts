// `labelSelector=` on every list route, in real PostgreSQL: what the database returns is exactly what
// the pure matcher (lib/labels/label-selector.ts) says, for random labels and random selectors, and a
// selector that is not one is a 400 naming the parameter, the rule and the position.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { formatLabelSelector, type LabelRequirement, type LabelSelector, matchesLabelSelector } from '@/lib/labels/label-selector'
import { type Kind, KINDS } from '@/lib/manifests/kinds'
import { call, resetDatabase } from './helpers'

const tools = resourceRoutes('Tool')
const key = fc.constantFrom('team', 'env', 'app.kubernetes.io/name', 'tier')
const value = fc.constantFrom('', 'a', 'b', 'prod')
const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.record({ key, operator: fc.constantFrom('equals' as const, 'notEquals' as const), values: value.map((v) => [v]) }),
  fc.record({ key, operator: fc.constantFrom('in' as const, 'notIn' as const), values: fc.uniqueArray(value, { minLength: 1, maxLength: 3 }) }),
  fc.record({ key, operator: fc.constantFrom('exists' as const, 'doesNotExist' as const), values: fc.constant<string[]>([]) }),
)
const selector: fc.Arbitrary<LabelSelector> = fc.array(requirement, { maxLength: 4 }).map((requirements) => ({ requirements }))

const population = fc.sample(fc.dictionary(key, value, { maxKeys: 4 }), { numRuns: 40, seed: 16 })

const list = async (query: string) => {
  const res = await call(tools.list, `/api/v1/tools?limit=500&${query}`)
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return (res.json.items as { metadata: { name: string } }[]).map((t) => t.metadata.name)
}

describe('labelSelector on the list routes', () => {
  beforeAll(async () => {
    await resetDatabase()
    const docs = population.map((labels, i) => ({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Tool',
      metadata: { name: `sel.tool_${String(i).padStart(2, '0')}`, labels },
      spec: { type: 'function', description: 'x', inputSchema: { type: 'object' } },
    }))
    const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: JSON.stringify(docs), contentType: 'application/json' })
    expect(applied.status, applied.text).toBe(200)
  })

  it('returns exactly what the pure matcher selects', async () => {
    await fc.assert(
      fc.asyncProperty(selector, async (s) => {
        const expected = population.flatMap((labels, i) => (matchesLabelSelector(s, labels) ? [`sel.tool_${String(i).padStart(2, '0')}`] : []))
        expect(await list(`labelSelector=${encodeURIComponent(formatLabelSelector(s))}`)).toEqual(expected)
      }),
      { numRuns: 80 },
    )
  })

  it('combines with label=, namespace and paging', async () => {
    const both = await list('labelSelector=team&label=env=prod')
    const expected = population.flatMap((l, i) => ('team' in l && l.env === 'prod' ? [`sel.tool_${String(i).padStart(2, '0')}`] : []))
    expect(both).toEqual(expected)
    expect(await list('labelSelector=team&namespace=elsewhere')).toEqual([])
    const first = await call(tools.list, '/api/v1/tools?limit=2&labelSelector=!nothing')
    const second = await call(tools.list, `/api/v1/tools?limit=2&labelSelector=!nothing&cursor=${first.json.nextCursor}`)
    expect(second.json.items[0].metadata.name).toBe('sel.tool_02')
  })

  it('is taken by the list route of every kind', async () => {
    // Two of each kind in a namespace of their own: only the first matches the selector.
    const ns = 'sel-kinds'
    const specs: Record<Kind, (i: number) => Record<string, unknown>> = {
      Tool: () => ({ type: 'function', description: 'x', inputSchema: { type: 'object' } }),
      LanguageTool: (i) => ({ endpoint: `http://127.0.0.1:9/mcp${i}` }),
      Connector: (i) => ({ tools: [`selkind${i}.list`] }),
      Unit: () => ({}),
      Agent: () => ({}),
      Secret: () => ({ type: 'bearer', stringData: { token: 'label-selector-test-token' } }),
      SideEffectPolicy: (i) => ({ level: i === 0 ? 'financial' : 'privileged', requiresApproval: true }),
      Policy: () => ({ selector: { tools: ['sel.*'] }, rules: [{ when: 'true', effect: 'deny', reason: 'x' }] }),
      IdentityProvider: (i) => ({ issuer: `https://idp${i}.example.com`, audiences: ['toolroom'] }),
    }
    const nameOf = (kind: Kind, i: number) =>
      kind === 'SideEffectPolicy' ? String(specs[kind](i).level) : kind === 'Tool' ? `sel.kind_${i}` : kind === 'Connector' ? `selkind${i}` : `sel-kind-${i}`
    const labelsOf = (i: number) => (i === 0 ? { team: 'a' } : { team: 'a', env: 'prod' })
    const docs = KINDS.flatMap((kind) =>
      [0, 1].map((i) => ({
        apiVersion: 'toolroom.dev/v1alpha1',
        kind,
        metadata: { name: nameOf(kind, i), namespace: ns, labels: labelsOf(i) },
        spec: specs[kind](i),
      })),
    )
    const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: JSON.stringify(docs), contentType: 'application/json' })
    expect(applied.status, applied.text).toBe(200)
    for (const kind of KINDS) {
      const query = `namespace=${ns}&labelSelector=${encodeURIComponent('team in (a,b),!env')}`
      const res = await call(resourceRoutes(kind).list, `/api/v1/x?${query}`)
      expect(res.status, `${kind}: ${res.text}`).toBe(200)
      expect(
        (res.json.items as { metadata: { name: string } }[]).map((r) => r.metadata.name),
        kind,
      ).toEqual([nameOf(kind, 0)])
    }
  })

  it('refuses malformed, oversized and hostile selectors with a problem naming the parameter and the rule', async () => {
    const bad = await call(tools.list, `/api/v1/tools?labelSelector=${encodeURIComponent('team in prod')}`)
    expect(bad.status).toBe(400)
    expect(bad.contentType).toBe('application/problem+json')
    expect(bad.json.errors[0]).toMatchObject({ field: 'labelSelector', rule: 'label-selector', message: expect.stringContaining('at character 9') })
    const comparison = await call(tools.list, '/api/v1/tools?labelSelector=replicas%3E1')
    expect(comparison.json.errors[0]).toMatchObject({ field: 'labelSelector', rule: 'label-selector', message: expect.stringContaining('not supported') })
    const huge = await call(tools.list, `/api/v1/tools?labelSelector=${'a'.repeat(5000)}`)
    expect(huge.status).toBe(400)
    expect(huge.json.errors[0]).toMatchObject({ field: 'labelSelector', rule: 'max-length' })
    const nul = await call(tools.list, '/api/v1/tools?labelSelector=team%3Da%00')
    expect(nul.status).toBe(422)
    expect(nul.json.errors[0]).toMatchObject({ field: 'labelSelector', rule: 'storable-text' })
    const twice = await call(tools.list, '/api/v1/tools?labelSelector=a&labelSelector=b')
    expect(twice.status).toBe(400)
    expect(twice.json.errors[0]).toMatchObject({ field: 'labelSelector' })
    const proto = await list(`labelSelector=${encodeURIComponent('constructor,hasOwnProperty')}`)
    expect(proto).toEqual([])
  })
})
