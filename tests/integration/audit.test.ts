import { beforeEach, describe, expect, it } from 'vitest'
import { auditRoutes } from '@/lib/api/audit-routes'
import { discoveryRoutes } from '@/lib/api/discovery-routes'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { until } from '../support/until'
import { call, resetDatabase, yaml } from './helpers'

// The audit log is append-only and is never reset between tests: each test reads the events after
// a mark taken at its start.
let mark = 0n
beforeEach(async () => {
  await resetDatabase()
  mark = (await prisma.auditEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0n
})
/**
 * A time after every event so far, and not after any event to come: the clock once it has passed the
 * newest event's time as stored, to the millisecond (audit times come from the database's clock,
 * which is this machine's).
 */
async function now() {
  const newest = (await prisma.auditEvent.aggregate({ _max: { at: true } }))._max.at?.getTime() ?? 0
  const passed = await until('the clock to pass the newest audit event', () => Date.now() > newest && new Date(), { everyMs: 1 })
  return passed.toISOString()
}
const eventsSinceMark = () => prisma.auditEvent.findMany({ where: { id: { gt: mark } }, orderBy: { id: 'asc' } })

const apply = (body: string, query = '', headers: Record<string, string> = {}) => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body, headers })
const tools = resourceRoutes('Tool')
const agents = resourceRoutes('Agent')

const tool = (name: string, description = 'Echo the input back.', labels = '{}') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata:
  name: ${name}
  labels: ${labels}
spec:
  type: function
  description: ${description}
  inputSchema: { type: object }
`

describe('apply is audited in its own transaction', () => {
  it('records one event per created document, with the manifest as after, the actor and the request id', async () => {
    const res = await apply(`${tool('acme.echo')}---\n${tool('acme.ping')}`, '', { 'x-request-id': 'req-audit-1' })
    expect(res.status).toBe(200)
    const events = await eventsSinceMark()
    expect(events).toHaveLength(2)
    expect(events[0]).toMatchObject({
      action: 'resource.created',
      kind: 'Tool',
      namespace: 'default',
      resource: 'acme.echo',
      actorName: 'integration tests',
      actorKind: 'token',
      requestId: 'req-audit-1',
      resourceId: res.json.results[0].id,
      before: null,
      detail: { via: 'apply' },
    })
    expect(events[0].after).toEqual({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Tool',
      metadata: { name: 'acme.echo', namespace: 'default', labels: {}, annotations: {} },
      spec: { type: 'function', description: 'Echo the input back.', inputSchema: { type: 'object' } },
    })
    expect(events[1]).toMatchObject({ action: 'resource.created', resource: 'acme.ping' })
  })

  it('records nothing for a dry run, an unchanged re-apply, or a refused manifest', async () => {
    await apply(tool('acme.echo'))
    const afterCreate = await eventsSinceMark()
    expect(afterCreate).toHaveLength(1)
    expect((await apply(tool('acme.echo', 'changed'), '?dryRun=true')).json.summary.updated).toBe(1)
    expect((await apply(tool('acme.echo'))).json.summary.unchanged).toBe(1)
    expect((await apply(`${tool('acme.other')}---\n${tool('Not A Tool Id')}`)).status).toBe(422)
    expect(await eventsSinceMark()).toHaveLength(1)
  })

  it('records an update with before and after', async () => {
    await apply(tool('acme.echo'))
    await apply(tool('acme.echo', 'Echo, louder.', '{ tier: gold }'))
    const [, updated] = await eventsSinceMark()
    expect(updated.action).toBe('resource.updated')
    expect(updated.before).toMatchObject({ metadata: { labels: {} }, spec: { description: 'Echo the input back.' } })
    expect(updated.after).toMatchObject({ metadata: { labels: { tier: 'gold' } }, spec: { description: 'Echo, louder.' } })
  })
})

describe('REST changes are audited', () => {
  it('create, replace and delete each record one event', async () => {
    const body = (description: string) => ({ metadata: { name: 'acme.echo' }, spec: { type: 'function', description, inputSchema: { type: 'object' } } })
    const created = await call(tools.create, '/api/v1/tools', { method: 'POST', body: body('one') })
    const id = created.json.id
    await call(tools.replace, `/api/v1/tools/${id}`, { method: 'PUT', params: { id }, body: body('two') })
    // a refused create changes nothing and records nothing
    expect((await call(tools.create, '/api/v1/tools', { method: 'POST', body: body('three') })).status).toBe(409)
    await call(tools.remove, `/api/v1/tools/${id}`, { method: 'DELETE', params: { id } })
    const events = await eventsSinceMark()
    expect(events.map((e) => e.action)).toEqual(['resource.created', 'resource.updated', 'resource.deleted'])
    expect(events.every((e) => e.resourceId === id && e.detail && (e.detail as { via: string }).via === 'rest')).toBe(true)
    expect(events[1]).toMatchObject({ before: { spec: { description: 'one' } }, after: { spec: { description: 'two' } } })
    expect(events[2]).toMatchObject({ before: { spec: { description: 'two' } }, after: null })
  })

  it('records an image tools upload with the tools before and after', async () => {
    const agent = await call(agents.create, '/api/v1/agents', {
      method: 'POST',
      body: { metadata: { name: 'helper' }, spec: { image: `registry.test/helper@sha256:${'a'.repeat(64)}` } },
    })
    const upload = await call(fleetRoutes('Agent').putImageTools, `/api/v1/agents/${agent.json.id}/image-tools`, {
      method: 'PUT',
      params: { id: agent.json.id },
      body: { tools: [{ name: 'helper.search', description: 'Search', inputSchema: { type: 'object' } }] },
    })
    expect(upload.status, upload.text).toBe(200)
    const event = (await eventsSinceMark()).find((e) => e.action === 'image_tools.uploaded')
    expect(event).toMatchObject({
      kind: 'Agent',
      resource: 'helper',
      resourceId: agent.json.id,
      before: { tools: [] },
      after: { tools: [{ name: 'helper.search' }] },
    })
  })

  it('records surface-change decisions and manual refreshes', async () => {
    await apply(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: mem }
spec: { image: registry.test/mem:1, port: 8080, endpoint: "http://127.0.0.1:9/mcp" }
`)
    const server = await prisma.languageTool.findFirstOrThrow({ where: { name: 'mem' } })
    const before = [{ name: 'remember', description: 'old', inputSchema: { type: 'object' } }]
    const proposed = [{ name: 'remember', description: 'new', inputSchema: { type: 'object' } }]
    await prisma.languageTool.update({ where: { id: server.id }, data: { toolSchemas: before } })
    // The diff discovery would have written for this change (answers are held to their contract).
    const diff = { added: [], removed: [], changed: [{ name: 'remember', fields: ['description'], before: before[0], after: proposed[0] }], reordered: false }
    const held = (status = 'pending_review') =>
      prisma.surfaceChange.create({ data: { subjectKind: 'LanguageTool', subjectId: server.id, namespace: 'default', name: 'mem', diff, status, proposed } })
    const [a, r] = [await held(), await held()]
    expect(
      (await call(discoveryRoutes.accept, `/api/v1/discovery/changes/${a.id}/accept`, { method: 'POST', params: { id: a.id }, body: { comment: 'ok' } }))
        .status,
    ).toBe(200)
    expect((await call(discoveryRoutes.reject, `/api/v1/discovery/changes/${r.id}/reject`, { method: 'POST', params: { id: r.id }, body: {} })).status).toBe(
      200,
    )
    expect(
      (await call(discoveryRoutes.refreshLanguageTool, `/api/v1/languagetools/${server.id}/refresh`, { method: 'POST', params: { id: server.id } })).status,
    ).toBe(202)
    const events = (await eventsSinceMark()).filter((e) => e.action !== 'resource.created')
    expect(events.map((e) => e.action)).toEqual(['surface_change.accepted', 'surface_change.rejected', 'discovery.refresh_requested'])
    expect(events[0]).toMatchObject({
      kind: 'LanguageTool',
      resource: 'mem',
      before: { toolSchemas: before },
      after: { toolSchemas: proposed },
      detail: { surfaceChangeId: a.id, comment: 'ok' },
    })
    expect(events[1]).toMatchObject({ before: { toolSchemas: proposed }, after: { toolSchemas: proposed }, detail: { surfaceChangeId: r.id } })
  })
})

describe('the database keeps the log append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit rows, whatever code asks', async () => {
    await apply(tool('acme.echo'))
    const [event] = await eventsSinceMark()
    await expect(prisma.$executeRawUnsafe(`UPDATE "AuditEvent" SET "actorName" = 'someone else' WHERE id = ${event.id}`)).rejects.toThrow(/append-only: UPDATE/)
    await expect(prisma.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE id = ${event.id}`)).rejects.toThrow(/append-only: DELETE/)
    await expect(prisma.$executeRawUnsafe('TRUNCATE "AuditEvent"')).rejects.toThrow(/append-only: TRUNCATE/)
    await expect(prisma.auditEvent.deleteMany({})).rejects.toThrow(/append-only/)
    expect(await prisma.auditEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ actorName: 'integration tests' })
  })
})

describe('GET /api/v1/audit and the JSONL export', () => {
  const list = (query: string) => call(auditRoutes.list, `/api/v1/audit${query}`)

  it('filters by actor, action, kind, namespace, resource and time, newest first, in cursor pages', async () => {
    const start = await now()
    for (const n of ['a', 'b']) await apply(tool(`acme.${n}`))
    const mid = await now()
    for (const n of ['c', 'd', 'e']) await apply(tool(`acme.${n}`))
    await apply(tool('acme.a', 'changed'))
    const resourceA = await list(`?resource=acme.a&kind=Tool&namespace=default&from=${start}`)
    expect(resourceA.json.items.map((e: { action: string }) => e.action)).toEqual(['resource.updated', 'resource.created'])
    expect((await list(`?action=resource.created&from=${start}`)).json.items).toHaveLength(5)
    expect((await list(`?action=resource.*&actor=integration%20tests&from=${start}`)).json.items).toHaveLength(6)
    // The prefix is text: `%*` would otherwise be LIKE '%%', every action; `resource_*` any one character.
    expect((await list(`?action=${encodeURIComponent('%*')}&from=${start}`)).json.items).toHaveLength(0)
    expect((await list(`?action=${encodeURIComponent('resource_created*')}&from=${start}`)).json.items).toHaveLength(0)
    expect((await list('?actor=nobody')).json.items).toHaveLength(0)
    expect((await list(`?from=${start}&to=${mid}`)).json.items.map((e: { resource: string }) => e.resource)).toEqual(['acme.b', 'acme.a'])

    const seen: string[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const page = await list(`?from=${start}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      expect(page.json.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.json.items.map((e: { id: string }) => e.id))
      cursor = page.json.nextCursor
    }
    expect(seen).toHaveLength(6)
    expect([...seen].sort((x, y) => Number(BigInt(y) - BigInt(x)))).toEqual(seen)
    expect(new Set(seen).size).toBe(6)
  })

  it('exports the filtered log as JSON Lines, oldest first, one event per line', async () => {
    const start = await now()
    for (const n of ['a', 'b', 'c']) await apply(tool(`acme.${n}`))
    const res = await call(auditRoutes.export, `/api/v1/audit/export?from=${start}&kind=Tool`)
    expect(res.status).toBe(200)
    expect(res.contentType).toMatch(/^application\/jsonl/)
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="toolroom-audit-.*\.jsonl"/)
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.map((e) => e.resource)).toEqual(['acme.a', 'acme.b', 'acme.c'])
    expect(lines[0]).toMatchObject({ action: 'resource.created', actor: { name: 'integration tests' }, after: { kind: 'Tool' } })
  })

  it('streams an export larger than one page', async () => {
    const start = await now()
    const docs = Array.from({ length: 620 }, (_, i) => tool(`bulk.t${i}`)).join('---\n')
    expect((await apply(docs)).status).toBe(200)
    const res = await call(auditRoutes.export, `/api/v1/audit/export?from=${start}&action=resource.created`)
    const lines = res.text.trimEnd().split('\n')
    expect(lines).toHaveLength(620)
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(620)
  })

  it('answers hostile queries with problem+json naming the parameter', async () => {
    for (const [query, field] of [
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45', 'to'],
      ['?limit=100000', 'limit'],
      ['?limit=-1', 'limit'],
      ['?colour=red', 'colour'],
      ['?cursor=not-a-cursor', 'cursor'],
      [`?resource=${'x'.repeat(5000)}`, 'resource'],
      ['?actorKind=robot', 'actorKind'],
    ] as const) {
      const res = await list(query)
      expect(res.status, query).toBe(400)
      expect(res.contentType).toBe('application/problem+json')
      expect(JSON.stringify(res.json.errors), query).toContain(field)
    }
    expect((await call(auditRoutes.export, '/api/v1/audit/export?from=soon')).status).toBe(400)
    expect((await call(auditRoutes.export, '/api/v1/audit/export?cursor=abc')).status).toBe(400)
  })
})
