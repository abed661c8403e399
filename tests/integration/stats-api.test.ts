// The statistics API and the calls explorer API over real rows: answers, filters, keyset pages,
// and hostile query input answered with problem+json.
import { beforeAll, describe, expect, it } from 'vitest'
import { statsRoutes, toolCallDetail, toolCallRow } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { applyManifest, call, resetDatabase, yaml } from './helpers'
import { FIXTURE_AGENTS, insertCalls, resetCalls } from './stats-fixtures'

let agentId: string

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: unit1, namespace: ops }
spec: {}
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: unit2, namespace: ops }
spec: { parent: unit1 }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-1, namespace: ops }
spec: { unit: unit1 }
`)
  agentId = (await prisma.agent.findFirstOrThrow({ where: { name: 'agent-1' } })).id
  await insertCalls({ count: 3000, withinHours: 120 })
  await insertCalls({ count: 40, withinHours: 30, agentId, tool: 'gena.t1' })
  await insertCalls({ count: 5, withinHours: 2, tool: 'secret.tool', outcome: 'failed', args: { query: 'refund', apiKey: '[REDACTED]' } })
  await rollupCallStats()
})

const sql = async (where: string) =>
  Number(
    (
      await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
        `SELECT count(*) AS n FROM "ToolCall" WHERE outcome <> 'pending_approval' AND "startedAt" >= date_trunc('day', now(), 'UTC') - interval '6 days' AND ${where}`,
      )
    )[0].n,
  )

describe('7-day statistics', () => {
  it('answers overall, per tool, agent, unit and namespace with 7 days and every hour', async () => {
    const overview = await call(statsRoutes.overview, '/api/v1/stats/overview')
    expect(overview.status).toBe(200)
    expect(overview.json.byDay).toHaveLength(7)
    expect(overview.json.byHour.length).toBeGreaterThan(144)
    expect(overview.json.byHour.length).toBeLessThanOrEqual(168)
    expect(overview.json.totals.calls).toBe(await sql('true'))
    expect(overview.json.byDay.reduce((n: number, d: { calls: number }) => n + d.calls, 0)).toBe(overview.json.totals.calls)
    expect(overview.json.totals.failures).toBe(await sql(`outcome = 'failed'`))
    expect(overview.json.totals.p95Ms).toBeGreaterThan(overview.json.totals.p50Ms)

    const tool = await call(statsRoutes.resolvedTool, '/api/v1/stats/tools?key=Tool/ops/gena.t1')
    expect(tool.status, JSON.stringify(tool.json)).toBe(200)
    expect(tool.json.totals.calls).toBe(await sql(`"toolId" = 'gena.t1'`))

    const agent = await call(statsRoutes.agent, '/api/v1/stats/agents/agent-1?namespace=ops', { params: { id: 'agent-1' } })
    expect(agent.status).toBe(200)
    expect(agent.json.key).toBe(agentId)
    expect(agent.json.totals.calls).toBe(await sql(`"agentId" = '${agentId}'`))

    // A unit's figures include the units below it (unit2's parent is unit1).
    const unit = await call(statsRoutes.unit, '/api/v1/stats/units/unit1?namespace=ops', { params: { id: 'unit1' } })
    const sub = await call(statsRoutes.unit, '/api/v1/stats/units/unit2?namespace=ops', { params: { id: 'unit2' } })
    expect(sub.json.totals.calls).toBe(await sql(`unit = 'unit2' AND "agentNamespace" = 'ops'`))
    expect(unit.json.totals.calls).toBe(await sql(`unit IN ('unit1', 'unit2') AND "agentNamespace" = 'ops'`))
    expect(sub.json.totals.calls).toBeGreaterThan(0)
    expect(unit.json.totals.calls).toBeGreaterThan(sub.json.totals.calls)
    expect(unit.json.byDay.reduce((n: number, d: { calls: number }) => n + d.calls, 0)).toBe(unit.json.totals.calls)

    const ns = await call(statsRoutes.namespace, '/api/v1/stats/namespaces/genb', { params: { namespace: 'genb' } })
    expect(ns.json.totals.calls).toBe(await sql(`"toolNamespace" = 'genb'`))
  })

  it('lists the tools failing most, most failures first', async () => {
    const res = await call(statsRoutes.topFailing, '/api/v1/stats/top-failing-tools?limit=5')
    expect(res.status).toBe(200)
    expect(res.json.items).toHaveLength(5)
    const failures = res.json.items.map((i: { failures: number }) => i.failures)
    expect(failures).toEqual([...failures].sort((a, b) => b - a))
    const first = res.json.items[0]
    expect(first.failures).toBe(await sql(`"toolKey" = '${first.key}' AND outcome = 'failed'`))
    expect(first).toMatchObject({ key: `Tool/ops/${first.toolId}`, source: { kind: 'Tool', namespace: 'ops', name: first.toolId } })
    expect(first.failureRate).toBeCloseTo(first.failures / first.calls)
  })

  it('answers an unknown agent or Tool with 404 and a bad tool key with 400, as problem+json', async () => {
    const agent = await call(statsRoutes.agent, '/api/v1/stats/agents/nobody', { params: { id: 'nobody' } })
    expect(agent.status).toBe(404)
    expect(agent.contentType).toContain('application/problem+json')
    const tool = await call(statsRoutes.tool, '/api/v1/stats/tools/gena.t1?namespace=ops', { params: { id: 'gena.t1' } })
    expect(tool.status).toBe(404)
    for (const key of ['x\'; DROP TABLE "ToolCall"; --', 'Tool/ops', 'Tool/ops/a/b', 'Nope/ops/a', 'LanguageTool//mem0/mem0.search', 'x'.repeat(700)]) {
      const res = await call(statsRoutes.resolvedTool, `/api/v1/stats/tools?key=${encodeURIComponent(key)}`)
      expect(res.status, key).toBe(400)
      expect(res.contentType).toContain('application/problem+json')
      expect(res.json.errors[0].field).toContain('key')
    }
    const ns = await call(statsRoutes.namespace, '/api/v1/stats/namespaces/..', { params: { namespace: '..' } })
    expect(ns.status).toBe(400)
  })
})

describe('calls explorer', () => {
  it('pages through every matching call once, newest first', async () => {
    const seen: Array<{ id: string; startedAt: string }> = []
    let cursor: string | null = null
    do {
      const res: { status: number; json: { items: Array<{ id: string; startedAt: string; args?: unknown }>; nextCursor: string | null } } = await call(
        statsRoutes.calls,
        `/api/v1/calls?tool=gena.t1&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(res.status).toBe(200)
      for (const item of res.json.items) expect(item.args).toBeUndefined()
      seen.push(...res.json.items)
      cursor = res.json.nextCursor
    } while (cursor)
    const expected = await prisma.toolCall.findMany({ where: { toolId: 'gena.t1' }, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], select: { id: true } })
    expect(seen.map((c) => c.id)).toEqual(expected.map((c) => c.id))
  })

  it('filters by agent, namespace, outcome, channel and time range together', async () => {
    const from = new Date(Date.now() - 48 * 3_600_000).toISOString()
    const to = new Date(Date.now() - 3_600_000).toISOString()
    const url = `/api/v1/calls?agentId=${FIXTURE_AGENTS[1]}&namespace=genc&outcome=succeeded&channel=rest&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=200`
    const res = await call(statsRoutes.calls, url)
    expect(res.status).toBe(200)
    const expected = await prisma.toolCall.count({
      where: { agentId: FIXTURE_AGENTS[1], toolNamespace: 'genc', outcome: 'succeeded', channel: 'rest', startedAt: { gte: new Date(from), lt: new Date(to) } },
    })
    expect(expected).toBeGreaterThan(0)
    expect(res.json.items).toHaveLength(expected)
    for (const item of res.json.items) expect(item).toMatchObject({ agentId: FIXTURE_AGENTS[1], toolNamespace: 'genc', outcome: 'succeeded', channel: 'rest' })
  })

  it('lists the calls of a tool the callers did not have by its Unresolved key (recorded without one)', async () => {
    await insertCalls({ count: 3, withinHours: 2, tool: 'ghost.tool', toolKey: null, outcome: 'denied' })
    const res = await call(statsRoutes.calls, `/api/v1/calls?toolKey=${encodeURIComponent('Unresolved/ghost.tool')}`)
    expect(res.status).toBe(200)
    expect(res.json.items).toHaveLength(3)
    for (const item of res.json.items) expect(item).toMatchObject({ toolId: 'ghost.tool', toolKey: null })
  })

  it('filters by agent as people name it: namespace/name, a name in any namespace, or an id (as approvals and credentials do)', async () => {
    const expected = await prisma.toolCall.count({ where: { agentId } })
    expect(expected).toBe(40)
    for (const agent of ['ops/agent-1', 'agent-1', agentId]) {
      const res = await call(statsRoutes.calls, `/api/v1/calls?agent=${encodeURIComponent(agent)}&limit=200`)
      expect(res.status, res.text).toBe(200)
      expect(res.json.items, agent).toHaveLength(expected)
      for (const item of res.json.items) expect(item).toMatchObject({ agentId })
    }
    for (const agent of ['other/agent-1', 'nobody', "agent-1' OR 1=1 --", 'ops/', '/agent-1', '%', '_']) {
      const res = await call(statsRoutes.calls, `/api/v1/calls?agent=${encodeURIComponent(agent)}`)
      expect(res.status, agent).toBe(200)
      expect(res.json.items, agent).toEqual([])
    }
    // With agentId too, both must hold.
    const both = await call(statsRoutes.calls, `/api/v1/calls?agent=agent-1&agentId=${FIXTURE_AGENTS[0]}`)
    expect(both.json.items).toEqual([])
    const tooLong = await call(statsRoutes.calls, `/api/v1/calls?agent=${'a'.repeat(300)}`)
    expect(tooLong.status).toBe(400)
    expect(tooLong.json.errors[0]).toMatchObject({ field: 'agent' })
  })

  it('shows one call with its stored, redacted arguments and result', async () => {
    const [one] = (await call(statsRoutes.calls, '/api/v1/calls?tool=secret.tool&limit=1')).json.items
    const res = await call(statsRoutes.call, `/api/v1/calls/${one.id}`, { params: { id: one.id } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      id: one.id,
      toolId: 'secret.tool',
      outcome: 'failed',
      errorCode: 'UPSTREAM_ERROR',
      args: { query: 'refund', apiKey: '[REDACTED]' },
    })
    // The documented shapes (OpenAPI, and the portal's types) are what the API sends.
    expect(toolCallRow.strict().safeParse(one).error).toBeUndefined()
    expect(toolCallDetail.safeParse(res.json).error).toBeUndefined()
    const missing = await call(statsRoutes.call, '/api/v1/calls/00000000-0000-4000-8000-000000000000', {
      params: { id: '00000000-0000-4000-8000-000000000000' },
    })
    expect(missing.status).toBe(404)
  })

  it.each([
    ['a bad id', statsRoutes.call, '/api/v1/calls/not-a-uuid', { id: 'not-a-uuid' }, 400, 'id'],
    ['a bad agent id', statsRoutes.calls, '/api/v1/calls?agentId=1%20OR%201=1', {}, 400, 'agentId'],
    ['a bad date', statsRoutes.calls, '/api/v1/calls?from=yesterday', {}, 400, 'from'],
    ['a date without offset', statsRoutes.calls, '/api/v1/calls?to=2026-11-01T00:00:00', {}, 400, 'to'],
    ['a huge limit', statsRoutes.calls, '/api/v1/calls?limit=1000000', {}, 400, 'limit'],
    ['a negative limit', statsRoutes.calls, '/api/v1/calls?limit=-1', {}, 400, 'limit'],
    ['an unknown outcome', statsRoutes.calls, '/api/v1/calls?outcome=exploded', {}, 400, 'outcome'],
    ['an unknown parameter', statsRoutes.calls, '/api/v1/calls?sort=asc', {}, 400, ''],
    ['a forged cursor', statsRoutes.calls, `/api/v1/calls?cursor=${Buffer.from('["x","","y"]').toString('base64url')}`, {}, 400, 'cursor'],
    ['a garbage cursor', statsRoutes.calls, '/api/v1/calls?cursor=%00%01', {}, 422, 'cursor'],
    ['an empty time range', statsRoutes.calls, '/api/v1/calls?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', {}, 422, 'from'],
    ['a bad tool key', statsRoutes.calls, '/api/v1/calls?toolKey=..%2F..%2Fetc', {}, 400, 'toolKey'],
    ['a huge top-failing limit', statsRoutes.topFailing, '/api/v1/stats/top-failing-tools?limit=99999', {}, 400, 'limit'],
  ] as const)('refuses %s with problem+json naming the field', async (_, handler, url, params, status, field) => {
    const res = await call(handler, url, { params: params as Record<string, string> })
    expect(res.status, JSON.stringify(res.json)).toBe(status)
    expect(res.contentType).toContain('application/problem+json')
    if (field) expect(JSON.stringify(res.json.errors)).toContain(field)
  })
})
