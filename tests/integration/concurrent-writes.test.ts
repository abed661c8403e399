// Concurrent writes of one resource are atomic: of 20 identical applies at once, one changes it
// (one audit event, generation + 1) and the others find it done and answer `unchanged`.
import { describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { call, yaml } from './helpers'

const tools = resourceRoutes('Tool')
const apply = (body: string) => call(applyRoute, '/api/v1/apply', { method: 'POST', body })
const tool = (name: string, description: string) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata:
  name: ${name}
  namespace: races
spec:
  type: function
  description: ${description}
  inputSchema: { type: object }
`
const audits = (name: string, action: string) => prisma.auditEvent.count({ where: { resource: name, namespace: 'races', action } })
const parallel = <T>(n: number, f: () => Promise<T>) => Promise.all(Array.from({ length: n }, f))

describe('20 parallel writes of one resource', () => {
  it('by apply: one creation, then one update per change, the rest unchanged', async () => {
    const created = await parallel(20, () => apply(tool('race.apply', 'first')))
    expect(created.map((r) => r.status)).toEqual(Array(20).fill(200))
    const actions = created.map((r) => r.json.results[0].action).sort()
    expect(actions).toEqual(['created', ...Array(19).fill('unchanged')])
    expect(await audits('race.apply', 'resource.created')).toBe(1)

    const updated = await parallel(20, () => apply(tool('race.apply', 'second')))
    expect(updated.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(updated.map((r) => r.json.results[0].action).sort()).toEqual([...Array(19).fill('unchanged'), 'updated'])
    expect(await audits('race.apply', 'resource.updated')).toBe(1)
    const row = await prisma.tool.findUnique({ where: { namespace_name: { namespace: 'races', name: 'race.apply' } } })
    expect(row?.generation).toBe(2)
  }, 60_000)

  it('by REST: one create (the others a plain 409), one replace, the rest unchanged', async () => {
    const body = {
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Tool',
      metadata: { name: 'race.rest', namespace: 'races' },
      spec: { type: 'function', description: 'first', inputSchema: { type: 'object' } },
    }
    const created = await parallel(20, () => call(tools.create, '/api/v1/tools', { method: 'POST', body }))
    expect(created.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)])
    for (const r of created.filter((r) => r.status === 409)) expect(r.json.detail).toMatch(/already exists/)
    const id = created.find((r) => r.status === 201)!.json.id as string

    const changed = { ...body, spec: { ...body.spec, description: 'second' } }
    const replaced = await parallel(20, () => call(tools.replace, `/api/v1/tools/${id}`, { method: 'PUT', params: { id }, body: changed }))
    expect(replaced.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(await audits('race.rest', 'resource.updated')).toBe(1)
    expect((await prisma.tool.findUnique({ where: { id } }))?.generation).toBe(2)
  }, 60_000)
})
