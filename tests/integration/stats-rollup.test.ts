// The statistics rollup against a direct aggregation of the same calls in SQL: counts per hour and
// dimension, late, changed and deleted calls, percentile precision, re-runs, several workers, Tool
// status fields and the stats cache behind effective tool sets.
import { beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { REFUSED_OUTCOMES } from '@/lib/stats/call-outcomes'
import { latencyBucketOf } from '@/lib/stats/latency-buckets'
import { readCallStats } from '@/lib/stats/read-call-stats'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { applyManifest, call, resetDatabase, yaml } from './helpers'
import { insertCalls, resetCalls } from './stats-fixtures'
import { until } from '../support/until'

const refused = REFUSED_OUTCOMES.map((o) => `'${o}'`).join(',')

// What the rollup must equal: the same rows grouped directly, for every dimension.
async function directCounts(): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<Array<{ line: string }>>(`
    WITH c AS (
      SELECT date_trunc('hour', "startedAt", 'UTC') AS hour, "toolKey", "agentId"::text AS agent,
        CASE WHEN unit IS NOT NULL THEN "agentNamespace" || '/' || unit END AS unit, "toolNamespace", outcome
      FROM "ToolCall" WHERE outcome <> 'pending_approval' AND "startedAt" >= now() - interval '8 days'
    ), d AS (
      SELECT 'tool' AS dimension, "toolKey" AS key, * FROM c
      UNION ALL SELECT 'agent', agent, * FROM c
      UNION ALL SELECT 'unit', unit, * FROM c WHERE unit IS NOT NULL
      UNION ALL SELECT 'namespace', "toolNamespace", * FROM c
      UNION ALL SELECT 'all', '', * FROM c
    )
    SELECT concat_ws('|', dimension, key, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24'), count(*),
      count(*) FILTER (WHERE outcome = 'failed'), count(*) FILTER (WHERE outcome IN (${refused}))) AS line
    FROM d GROUP BY dimension, key, hour ORDER BY 1`)
  return rows.map((r) => r.line)
}

async function rolledUp(): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<Array<{ line: string }>>(`
    SELECT concat_ws('|', dimension, key, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24'), calls, failures, refused) AS line
    FROM "CallStatHourly" WHERE hour >= date_trunc('hour', now() - interval '8 days', 'UTC') ORDER BY 1`)
  return rows.map((r) => r.line)
}

/** Calls the rollup counts: final outcomes within the kept window. */
const countedCalls = async () =>
  Number(
    (
      await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
        `SELECT count(*) AS n FROM "ToolCall" WHERE outcome <> 'pending_approval' AND "startedAt" >= now() - interval '8 days'`,
      )
    )[0].n,
  )

const hourly = () => prisma.$queryRawUnsafe<unknown[]>(`SELECT * FROM "CallStatHourly" ORDER BY dimension, key, hour`)

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
})

describe('hourly rollup', () => {
  it('equals a direct aggregation, hour boundaries included, and leaves no dirty hours', async () => {
    await insertCalls({ count: 6000, withinHours: 96 })
    // Both edges of one hour, and the last millisecond of the hour before.
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 3_600_000)
    await insertCalls({ count: 1, at: hour, tool: 'edge.start' })
    await insertCalls({ count: 1, at: new Date(hour.getTime() + 3_599_999), tool: 'edge.start' })
    await insertCalls({ count: 1, at: new Date(hour.getTime() - 1), tool: 'edge.start' })
    // Too old to keep: not rolled up at all.
    await insertCalls({ count: 50, at: new Date(Date.now() - 10 * 86_400_000), tool: 'old.calls' })

    const result = await rollupCallStats()
    expect(result.ran).toBe(true)
    // New calls are added to their hours, none recomputed.
    expect(result).toMatchObject({ hoursRecomputed: 0, callsAdded: await countedCalls() })
    expect(await rolledUp()).toEqual(await directCounts())
    expect(await prisma.callStatDirtyHour.count()).toBe(0)

    const edge = await readCallStats('tool', 'Tool/ops/edge.start')
    const edgeHours = edge.byHour.filter((h) => h.calls > 0)
    expect(edgeHours.map((h) => [h.hour, h.calls])).toEqual([
      [new Date(hour.getTime() - 3_600_000).toISOString(), 1],
      [hour.toISOString(), 2],
    ])
    expect((await readCallStats('tool', 'Tool/ops/old.calls')).totals.calls).toBe(0)
  })

  it('counts calls written late with an old startedAt, changed outcomes and deleted calls', async () => {
    const before = await readCallStats('tool', 'Tool/ops/late.tool')
    expect(before.totals.calls).toBe(0)
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000)
    const ids = await insertCalls({ count: 4, at: threeDaysAgo, tool: 'late.tool', outcome: 'succeeded' })
    await rollupCallStats()
    let stats = await readCallStats('tool', 'Tool/ops/late.tool')
    expect(stats.totals).toMatchObject({ calls: 4, failures: 0 })
    expect(stats.byDay.find((d) => d.day === threeDaysAgo.toISOString().slice(0, 10))!.calls).toBe(4)

    await prisma.toolCall.updateMany({ where: { id: ids[0] }, data: { outcome: 'failed' } })
    await prisma.toolCall.deleteMany({ where: { id: ids[1] } })
    await rollupCallStats()
    stats = await readCallStats('tool', 'Tool/ops/late.tool')
    expect(stats.totals).toMatchObject({ calls: 3, failures: 1, failureRate: 1 / 3 })
    expect(await rolledUp()).toEqual(await directCounts())
  })

  it('writes the same rows when run again, with or without dirty hours', async () => {
    const first = await hourly()
    const again = await rollupCallStats()
    expect(again).toMatchObject({ ran: true, hoursRecomputed: 0, callsAdded: 0, totalsChanged: false })
    // Every kept hour marked dirty again: a full recompute gives identical rows.
    await prisma.$executeRawUnsafe(`INSERT INTO "CallStatDirtyHour"(hour) SELECT DISTINCT hour FROM "CallStatHourly"`)
    const full = await rollupCallStats()
    expect(full.hoursRecomputed).toBeGreaterThan(90)
    expect(full.totalsChanged).toBe(false)
    expect(await hourly()).toEqual(first)
  })

  it('lets one of several concurrent runs do the work, and the outcome is the same', async () => {
    await insertCalls({ count: 500, withinHours: 48 })
    const runs = await Promise.all([rollupCallStats(), rollupCallStats(), rollupCallStats()])
    expect(runs.some((r) => r.ran)).toBe(true)
    // A run that found the lock taken leaves its work to the holder; one more run settles anything left.
    await rollupCallStats()
    expect(await rolledUp()).toEqual(await directCounts())
  })

  it('reports p50 and p95 within the latency bucket of the exact percentile', async () => {
    const exact = await prisma.$queryRawUnsafe<Array<{ key: string; p50: number; p95: number }>>(`
      SELECT "toolKey" AS key, percentile_disc(0.5) WITHIN GROUP (ORDER BY "latencyMs") AS p50, percentile_disc(0.95) WITHIN GROUP (ORDER BY "latencyMs") AS p95
      FROM "ToolCall" WHERE outcome IN ('succeeded', 'failed', 'approved') AND "latencyMs" IS NOT NULL
        AND "startedAt" >= date_trunc('day', now(), 'UTC') - interval '6 days' AND "toolId" LIKE 'gen%' GROUP BY 1`)
    expect(exact.length).toBeGreaterThan(5)
    for (const e of exact) {
      const { totals } = await readCallStats('tool', e.key)
      for (const [estimate, truth] of [
        [totals.p50Ms!, e.p50],
        [totals.p95Ms!, e.p95],
      ]) {
        expect(latencyBucketOf(Math.floor(estimate)), `${e.key}: ${estimate} vs ${truth}`).toBe(latencyBucketOf(truth))
        expect(Math.abs(estimate - truth)).toBeLessThanOrEqual(Math.max(1, 0.19 * truth))
      }
    }
  })
})

describe('Tool status and effective tool sets', () => {
  it('fills Tool.totalCalls7d/failureRate7d and effectiveTools entries, without announcing a registry change', async () => {
    const manifest = [
      yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.lookup, namespace: ops }
spec: { type: function, description: Looks things up, inputSchema: { type: object }, sideEffects: { level: read_only } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.unused, namespace: ops }
spec: { type: function, description: Never called, inputSchema: { type: object } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: looker, namespace: ops }
spec: { grants: [acme.lookup, acme.unused] }
`,
    ].join('')
    await applyManifest(manifest)
    const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'looker' } })
    const agents = resourceRoutes('Agent')
    const tools = resourceRoutes('Tool')
    // An answer cached before the calls: it must not outlive the stats it carries.
    const cold = await call(agents.get, `/api/v1/agents/${agent.id}`, { params: { id: agent.id } })
    expect(cold.json.effectiveTools.find((t: { name: string }) => t.name === 'acme.lookup').totalCalls7d).toBe(0)

    await insertCalls({ count: 8, withinHours: 20, tool: 'acme.lookup', outcome: 'succeeded', agentId: agent.id })
    await insertCalls({ count: 2, withinHours: 20, tool: 'acme.lookup', outcome: 'failed', agentId: agent.id })
    const [{ last_value: revisionBefore }] = await prisma.$queryRawUnsafe<Array<{ last_value: bigint }>>(`SELECT last_value FROM registry_revision`)
    const result = await rollupCallStats()
    expect(result.toolsUpdated).toBe(1)
    const [{ last_value: revisionAfter }] = await prisma.$queryRawUnsafe<Array<{ last_value: bigint }>>(`SELECT last_value FROM registry_revision`)
    expect(revisionAfter).toBe(revisionBefore)

    const tool = await call(tools.get, '/api/v1/tools/acme.lookup?namespace=ops', { params: { id: 'acme.lookup' } })
    expect(tool.json.status).toMatchObject({ totalCalls7d: 10, failureRate7d: 0.2 })
    const unused = await call(tools.get, '/api/v1/tools/acme.unused?namespace=ops', { params: { id: 'acme.unused' } })
    expect(unused.json.status).toMatchObject({ totalCalls7d: 0, failureRate7d: null })

    // The cached answer above must give way to one with the new numbers once the stats cache re-checks.
    const ttl = process.env.TOOLROOM_STATS_CACHE_SECONDS
    process.env.TOOLROOM_STATS_CACHE_SECONDS = '0'
    reloadConfig()
    try {
      // The stats cache re-checks on its own clock.
      const warm = await until(
        'the new figures in the effective set',
        async () => {
          const res = await call(agents.get, `/api/v1/agents/${agent.id}`, { params: { id: agent.id } })
          const entry = res.json.effectiveTools.find((t: { name: string }) => t.name === 'acme.lookup')
          return entry.totalCalls7d === 10 && entry
        },
        { timeoutMs: 40_000, everyMs: 250 },
      )
      expect(warm).toMatchObject({ totalCalls7d: 10, failureRate7d: 0.2 })
    } finally {
      if (ttl === undefined) delete process.env.TOOLROOM_STATS_CACHE_SECONDS
      else process.env.TOOLROOM_STATS_CACHE_SECONDS = ttl
      reloadConfig()
    }
  })
})
