import { beforeEach, describe, expect, it } from 'vitest'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { call, countRows, resetDatabase } from './helpers'

const tools = resourceRoutes('Tool')
const secrets = resourceRoutes('Secret')

const toolBody = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  metadata: { name, ...metadata },
  spec: { type: 'function', description: `The ${name} tool`, inputSchema: { type: 'object' }, ...spec },
})

async function createTool(name: string, spec?: Record<string, unknown>, metadata?: Record<string, unknown>) {
  const res = await call(tools.create, '/api/v1/tools', { method: 'POST', body: toolBody(name, spec, metadata) })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
  return res.json
}

beforeEach(resetDatabase)

describe('tools CRUD', () => {
  it('creates, reads by id and by name, replaces and deletes', async () => {
    const created = await createTool('acme.echo', {}, { namespace: 'team-a', labels: { tier: 'gold' } })
    expect(created).toMatchObject({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Tool',
      metadata: { name: 'acme.echo', namespace: 'team-a', labels: { tier: 'gold' }, generation: 1 },
    })
    // Observed at once (a function tool with no calls yet: nothing it needs is missing).
    expect(created.status).toEqual({
      phase: 'Ready',
      conditions: [
        {
          type: 'CallsSucceeding',
          status: 'Unknown',
          reason: 'NoRecentCalls',
          message: 'no calls in the last 2 hours',
          lastTransitionTime: expect.any(String),
        },
      ],
      totalCalls7d: 0,
      failureRate7d: null,
    })

    const byId = await call(tools.get, `/api/v1/tools/${created.id}`, { params: { id: created.id } })
    expect(byId.json.id).toBe(created.id)
    const byName = await call(tools.get, '/api/v1/tools/acme.echo?namespace=team-a', { params: { id: 'acme.echo' } })
    expect(byName.json.id).toBe(created.id)

    const replaced = await call(tools.replace, `/api/v1/tools/${created.id}`, {
      method: 'PUT',
      params: { id: created.id },
      body: toolBody('acme.echo', { description: 'Echo, louder', sideEffects: { level: 'read_only' } }, { namespace: 'team-a' }),
    })
    expect(replaced.status).toBe(200)
    expect(replaced.json.spec.description).toBe('Echo, louder')
    expect(replaced.json.metadata.generation).toBe(2)
    expect((await prisma.tool.findUniqueOrThrow({ where: { id: created.id } })).level).toBe('read_only')

    const removed = await call(tools.remove, `/api/v1/tools/${created.id}`, { method: 'DELETE', params: { id: created.id } })
    expect(removed.status).toBe(204)
    const gone = await call(tools.get, `/api/v1/tools/${created.id}`, { params: { id: created.id } })
    expect(gone.status).toBe(404)
    expect(gone.contentType).toBe('application/problem+json')
    expect(gone.json.detail).toMatch(/was not found/)
  })

  it('refuses a duplicate create with 409 and a rename on replace with 422', async () => {
    const created = await createTool('acme.echo')
    const again = await call(tools.create, '/api/v1/tools', { method: 'POST', body: toolBody('acme.echo') })
    expect(again.status).toBe(409)
    const renamed = await call(tools.replace, `/api/v1/tools/${created.id}`, { method: 'PUT', params: { id: created.id }, body: toolBody('acme.other') })
    expect(renamed.status).toBe(422)
    expect(renamed.json.errors[0]).toMatchObject({ field: 'metadata.name', rule: 'immutable' })
  })

  it('refuses bad bodies with problem+json naming the field and rule', async () => {
    const notJson = await call(tools.create, '/api/v1/tools', { method: 'POST', body: '{"metadata": ', contentType: 'application/json' })
    expect(notJson.status).toBe(400)
    expect(notJson.json.errors[0]).toMatchObject({ field: '(body)', rule: 'json-syntax' })

    const wrongKind = await call(tools.create, '/api/v1/tools', { method: 'POST', body: { ...toolBody('acme.x'), kind: 'Agent' } })
    expect(wrongKind.status).toBe(422)

    const badSpec = await call(tools.create, '/api/v1/tools', { method: 'POST', body: toolBody('acme.x', { type: 'rest', sideEffects: { level: 'spicy' } }) })
    expect(badSpec.status).toBe(422)
    expect(badSpec.json.errors).toContainEqual(expect.objectContaining({ field: 'spec.sideEffects.level', rule: 'enum' }))

    const restWithoutEndpoint = await call(tools.create, '/api/v1/tools', { method: 'POST', body: toolBody('acme.x', { type: 'rest' }) })
    expect(restWithoutEndpoint.json.errors).toContainEqual(expect.objectContaining({ field: 'spec.endpoint', rule: 'required' }))

    const proto = await call(tools.create, '/api/v1/tools', {
      method: 'POST',
      body: '{"metadata":{"name":"acme.x","labels":{"__proto__":"x"}},"spec":{"type":"function","description":"d","inputSchema":{"type":"object"},"__proto__":{"polluted":true}}}',
      contentType: 'application/json',
    })
    expect(proto.status).toBe(422)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()

    const big = await call(tools.create, '/api/v1/tools', { method: 'POST', body: toolBody('acme.big', { description: 'x'.repeat(2 * 1024 * 1024) }) })
    expect(big.status).toBe(413)
    expect(await countRows()).toMatchObject({ tools: 0 })
  })

  it('pages with cursors, without gaps or repeats', async () => {
    for (let i = 0; i < 7; i++) await createTool(`acme.tool_${i}`)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: Awaited<ReturnType<typeof call>> = await call(tools.list, `/api/v1/tools?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      seen.push(...res.json.items.map((t: { metadata: { name: string } }) => t.metadata.name))
      cursor = res.json.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `acme.tool_${i}`))

    const bad = await call(tools.list, '/api/v1/tools?cursor=not-a-cursor')
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0]).toMatchObject({ field: 'cursor', rule: 'cursor' })
    const tooMany = await call(tools.list, '/api/v1/tools?limit=100000')
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.errors[0]).toMatchObject({ field: 'limit', rule: 'max' })
    const unknown = await call(tools.list, '/api/v1/tools?colour=red')
    expect(unknown.status).toBe(400)
    expect(unknown.json.errors[0]).toMatchObject({ field: 'colour', rule: 'unknown-field' })
  })

  it('sorts by name, namespace or last change, either way, across pages', async () => {
    // Names and namespaces in different orders, so each sort tells itself apart from the others.
    const made = [
      ['zz.alpha', 'ns-a'],
      ['aa.zulu', 'ns-c'],
      ['mm.mike', 'ns-b'],
      ['aa.zulu', 'ns-a'],
      ['bb.bravo', 'ns-c'],
    ]
    for (const [name, namespace] of made) await createTool(name, {}, { namespace })
    // The first one made changes last.
    const first = await prisma.tool.findFirstOrThrow({ where: { name: 'zz.alpha' } })
    await call(tools.replace, `/api/v1/tools/${first.id}`, {
      method: 'PUT',
      params: { id: first.id },
      body: toolBody('zz.alpha', { description: 'changed' }, { namespace: 'ns-a' }),
    })

    const walk = async (sort: string) => {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const res: Awaited<ReturnType<typeof call>> = await call(tools.list, `/api/v1/tools?limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`)
        expect(res.status, res.text).toBe(200)
        seen.push(...res.json.items.map((t: { metadata: { name: string; namespace: string } }) => `${t.metadata.namespace}/${t.metadata.name}`))
        cursor = res.json.nextCursor
      } while (cursor)
      return seen
    }
    const byNamespace = ['ns-a/aa.zulu', 'ns-a/zz.alpha', 'ns-b/mm.mike', 'ns-c/aa.zulu', 'ns-c/bb.bravo']
    expect(await walk('namespace')).toEqual(byNamespace)
    expect(await walk('-namespace')).toEqual([...byNamespace].reverse())
    const byName = ['ns-a/aa.zulu', 'ns-c/aa.zulu', 'ns-c/bb.bravo', 'ns-b/mm.mike', 'ns-a/zz.alpha']
    expect(await walk('name')).toEqual(byName)
    expect(await walk('-name')).toEqual([...byName].reverse())
    const byUpdate = ['ns-c/aa.zulu', 'ns-b/mm.mike', 'ns-a/aa.zulu', 'ns-c/bb.bravo', 'ns-a/zz.alpha']
    expect(await walk('updated')).toEqual(byUpdate)
    expect(await walk('-updated')).toEqual([...byUpdate].reverse())

    const bad = await call(tools.list, '/api/v1/tools?sort=spec.description')
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0]).toMatchObject({ field: 'sort' })
    // A cursor of a name-ordered list cannot continue a list ordered by time.
    const page = await call(tools.list, '/api/v1/tools?limit=1&sort=name')
    const mixed = await call(tools.list, `/api/v1/tools?sort=updated&cursor=${page.json.nextCursor}`)
    expect(mixed.status).toBe(400)
    expect(mixed.json.errors[0]).toMatchObject({ field: 'cursor', rule: 'cursor' })
  })

  it('filters by namespace, type, side-effect level, label and text', async () => {
    await createTool('acme.read', { sideEffects: { level: 'read_only' } }, { namespace: 'a', labels: { team: 'blue' } })
    await createTool('acme.pay', { sideEffects: { level: 'financial' }, description: 'Pay an invoice' }, { namespace: 'b', labels: { team: 'red' } })
    await createTool('acme.run', { type: 'os', command: { argv: ['/bin/true'] }, sideEffects: { level: 'code_execution' } }, { namespace: 'b' })
    const names = async (query: string) =>
      (await call(tools.list, `/api/v1/tools?${query}`)).json.items.map((t: { metadata: { name: string } }) => t.metadata.name)
    expect(await names('namespace=b')).toEqual(['acme.pay', 'acme.run'])
    expect(await names('type=os')).toEqual(['acme.run'])
    expect(await names('level=financial')).toEqual(['acme.pay'])
    expect(await names('label=team=blue')).toEqual(['acme.read'])
    expect(await names('label=team=red&label=missing=x')).toEqual([])
    expect(await names('q=INVOICE')).toEqual(['acme.pay'])
    // LIKE's wildcards and escape are text: `%` alone would otherwise list every tool, `_` any one character.
    for (const q of ['%', '_', 'acme_pay', 'acme%', '\\']) expect(await names(`q=${encodeURIComponent(q)}`)).toEqual([])
    expect(await names(`q=${encodeURIComponent('acme.p')}`)).toEqual(['acme.pay'])
    const badLevel = await call(tools.list, '/api/v1/tools?level=spicy')
    expect(badLevel.status).toBe(400)
    expect(badLevel.json.errors[0]).toMatchObject({ field: 'level', rule: 'enum' })
  })
})

describe('secrets', () => {
  const value = 'sk-live-7f3c1a9e0b2d4c6e8a1b3d5f7a9c1e3b'

  it('are encrypted at rest and never returned', async () => {
    const created = await call(secrets.create, '/api/v1/secrets', {
      method: 'POST',
      body: { metadata: { name: 'stripe-key' }, spec: { type: 'bearer', stringData: { token: value } } },
    })
    expect(created.status).toBe(201)
    expect(created.json.spec).toEqual({ type: 'bearer', keys: ['token'] })
    const list = await call(secrets.list, '/api/v1/secrets')
    const one = await call(secrets.get, `/api/v1/secrets/${created.json.id}`, { params: { id: created.json.id } })
    for (const res of [created, list, one]) expect(res.text).not.toContain(value)
    const [row] = await prisma.$queryRawUnsafe<{ dump: string }[]>(`SELECT row_to_json(s)::text AS dump FROM "Secret" s`)
    expect(row.dump).not.toContain(value)
    expect(row.dump).not.toContain(Buffer.from(value).toString('base64'))
  })

  it('re-applying the same value changes nothing; a new value rotates in place', async () => {
    const body = { metadata: { name: 'stripe-key' }, spec: { stringData: { token: value } } }
    const created = await call(secrets.create, '/api/v1/secrets', { method: 'POST', body })
    const same = await call(secrets.replace, `/api/v1/secrets/${created.json.id}`, { method: 'PUT', params: { id: created.json.id }, body })
    expect(same.json.metadata.generation).toBe(1)
    const rotated = await call(secrets.replace, `/api/v1/secrets/${created.json.id}`, {
      method: 'PUT',
      params: { id: created.json.id },
      body: { ...body, spec: { stringData: { token: 'rotated' } } },
    })
    expect(rotated.json.metadata.generation).toBe(2)
    expect(rotated.json.id).toBe(created.json.id)
  })
})
