// The living demo (README, Quick start): the fleet seeded on ports `npm start` chose, every MCP server
// but the one labelled as an in-cluster example pointing at a local server; a week of history written
// as the gateway writes calls and counted by the real rollup; and the demo's agents calling through a
// real gateway as MCP clients, with successes, the failing tool, rate limits and held approvals.
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { connectDemoTraffic, DEMO_PENDING_APPROVALS, demoArguments, type DemoTraffic } from '@/lib/seed/demo-traffic'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { DEMO_FAILING_TOOL, DEMO_PEOPLE, seedDemoHistory } from '@/lib/seed/seed-demo-history'
import { readCallsByPerson } from '@/lib/stats/read-calls-by-person'
import { readCallStats, topFailingTools } from '@/lib/stats/read-call-stats'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { windowStart } from '@/lib/stats/stats-window'
import { chooseDemoPorts, DEMO_PORT_SPAN, withDemoPorts } from '@/scripts/demo-ports.mjs'
import { stopChild } from '@/scripts/stop-child.mjs'
import { listenOn, type Listening } from '../support/listen'
import { until } from '../support/until'
import { resetCalls } from './stats-fixtures'
import { applyManifest, resetDatabase, yaml } from './helpers'

let base: number
let endpoints: ReturnType<typeof spawn> | undefined
let gateway: Listening | undefined
let traffic: DemoTraffic | undefined

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
  await prisma.approvalRequest.deleteMany()
  // A data directory of its own, as a second checkout has: its range is free ports, not the manifest's.
  base = await chooseDemoPorts(`.data/test-reports/demo-ports-${process.pid}-${Date.now()}`, 0)
  expect((await seedDemoFleet({ portBase: base })).seeded).toBe(true)
}, 60_000)

afterAll(async () => {
  await traffic?.stop()
  await closeMcpSessions()
  await gateway?.close()
  if (endpoints) await stopChild(endpoints)
})

describe('the demo fleet’s servers', () => {
  it('all run locally, on the ports chosen for this data directory, except the one labelled an in-cluster example', async () => {
    expect(withDemoPorts('http://127.0.0.1:4801/mcp http://127.0.0.1:4810/agents/x http://127.0.0.1:4811/mcp', 6000)).toBe(
      'http://127.0.0.1:6000/mcp http://127.0.0.1:6009/agents/x http://127.0.0.1:4811/mcp',
    )
    const servers = await prisma.languageTool.findMany({ orderBy: { name: 'asc' } })
    const remote = servers.filter((s) => !String((s.spec as { endpoint?: string }).endpoint ?? '').startsWith('http://127.0.0.1:'))
    expect(remote.map((s) => s.name)).toEqual(['pagerduty-mcp'])
    expect((remote[0].spec as { description: string }).description).toMatch(/^An example of an in-cluster address/)
    for (const s of servers.filter((s) => s !== remote[0])) {
      const port = Number(new URL((s.spec as { endpoint: string }).endpoint).port)
      expect(port, s.name).toBeGreaterThanOrEqual(base)
      expect(port, s.name).toBeLessThan(base + DEMO_PORT_SPAN)
    }
  })
})

describe('a week of history', () => {
  it('is written as calls and counted by the rollup: the dashboard’s figures, with the failing tool on top', async () => {
    const now = new Date()
    const summary = await seedDemoHistory({ now })
    expect(summary.calls).toBeGreaterThan(1000)
    expect(summary.agents).toBeGreaterThan(5)

    const rows = await prisma.$queryRaw<{ outcome: string; n: number; oldest: Date; newest: Date }[]>`
      SELECT outcome, count(*)::int AS n, min("startedAt") AS oldest, max("startedAt") AS newest FROM "ToolCall" GROUP BY outcome`
    const byOutcome = Object.fromEntries(rows.map((r) => [r.outcome, r.n]))
    for (const outcome of ['succeeded', 'failed', 'rate_limited', 'denied', 'approved', 'rejected']) expect(byOutcome[outcome], outcome).toBeGreaterThan(0)
    expect(Math.max(...rows.map((r) => r.newest.getTime()))).toBeLessThan(now.getTime())
    // The whole 7-day window the dashboard shows: today and the six days before, from the first day on
    // (whose night, on a weekend, is quiet until 08:00 UTC: the first call may come hours after
    // the window opens, so not "6 × 24 hours before now", which depends on the hour the test runs).
    expect(Math.min(...rows.map((r) => r.oldest.getTime()))).toBeLessThan(windowStart(now).getTime() + 86_400_000)
    expect(Math.min(...rows.map((r) => r.oldest.getTime()))).toBeGreaterThanOrEqual(windowStart(now).getTime())

    await rollupCallStats()
    const stats = await readCallStats('all', '')
    const counted = rows.filter((r) => r.outcome !== 'pending_approval').reduce((sum, r) => sum + r.n, 0)
    expect(stats.totals.calls).toBe(counted)
    expect(stats.totals.failures).toBe(byOutcome.failed)
    // Every day has calls (today's may not have begun in earnest).
    expect(stats.byDay.slice(0, 6).every((d) => d.calls > 0)).toBe(true)
    expect((await topFailingTools(1))[0].toolId).toBe(DEMO_FAILING_TOOL)
    // Some agents act for the demo identity provider's people, the others as services.
    const people = await readCallsByPerson(20, { now: new Date() })
    expect(people.items.map((p) => p.onBehalfOf?.displayName ?? null).sort()).toEqual([...DEMO_PEOPLE.map((p) => p.displayName).sort(), null])
    expect(people.items.reduce((sum, p) => sum + p.calls, 0)).toBe(counted)
  }, 120_000)
})

describe('the demo’s agents at work', () => {
  it('fills in arguments a tool’s schema accepts', () => {
    expect(
      demoArguments({
        type: 'object',
        required: ['q', 'n', 'kind', 'at', 'nested'],
        properties: {
          q: { type: 'string' },
          n: { type: 'integer', minimum: 5 },
          kind: { enum: ['a', 'b'] },
          at: { type: 'string', format: 'date-time' },
          nested: { type: 'object', required: ['x'], properties: { x: { type: 'boolean' } } },
          optional: { type: 'string' },
        },
      }),
    ).toEqual({ q: 'demo', n: 5, kind: 'a', at: '2026-11-20T09:00:00Z', nested: { x: false } })
  })

  it('call through the gateway: successes, the failing tool, rate limits, and a few calls held for approval', async () => {
    endpoints = spawn(process.execPath, ['scripts/demo-endpoints.mjs'], {
      env: { ...process.env, TOOLROOM_DEMO_PORT: String(base) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let said = ''
    let complained = ''
    let exited: number | null = null
    endpoints.stdout!.on('data', (d) => (said += d))
    endpoints.stderr!.on('data', (d) => (complained += d))
    endpoints.once('exit', (code) => (exited = code ?? -1))
    // A start that failed says why, at once: not 30 s of waiting for a line that cannot come.
    await until(
      'the demo endpoints listen',
      () => {
        if (exited !== null) throw new Error(`the demo endpoints exited ${exited} before listening:\n${said}${complained}`)
        return /agent listener on/.test(said) ? true : undefined
      },
      { timeoutMs: 30_000 },
    )

    gateway = await listenOn(createGatewayServer({ port: 0 }))
    const since = new Date()
    traffic = await connectDemoTraffic(gateway.url, { seed: 7 })
    expect(traffic.callers.length).toBeGreaterThan(3)
    expect(await prisma.agentCredential.count({ where: { name: 'demo-traffic' } })).toBe(traffic.callers.length)

    const outcomes = async () =>
      Object.fromEntries(
        (
          await prisma.$queryRaw<{ outcome: string; n: number }[]>`
            SELECT outcome, count(*)::int AS n FROM "ToolCall" WHERE "startedAt" >= ${since} AND channel = 'mcp' GROUP BY outcome`
        ).map((r) => [r.outcome, r.n]),
      )
    const seen = await until(
      'the traffic shows each kind of call',
      async () => {
        await traffic!.tick()
        const now = await outcomes()
        const failing = await prisma.toolCall.count({ where: { startedAt: { gte: since }, toolId: DEMO_FAILING_TOOL, outcome: 'failed' } })
        return now.succeeded > 0 && now.rate_limited > 0 && now.pending_approval > 0 && failing > 0 ? now : undefined
      },
      { timeoutMs: 90_000, everyMs: 0 },
    )
    expect(seen.succeeded).toBeGreaterThan(0)
    // Held calls wait in the queue, never more than a handful at once.
    const pending = await prisma.approvalRequest.count({ where: { status: 'pending' } })
    expect(pending).toBeGreaterThan(0)
    expect(pending).toBeLessThanOrEqual(DEMO_PENDING_APPROVALS)

    // Only the demo's own agents call: one applied beside them, in the same namespace, gets no credential.
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: not-the-demos, namespace: support }
spec: { unit: support-tier1 }
`)
    // A restart issues fresh credentials and drops the old ones (their tokens were shown once).
    await traffic.stop()
    traffic = await connectDemoTraffic(gateway.url, { seed: 8 })
    expect(await prisma.agentCredential.count({ where: { name: 'demo-traffic' } })).toBe(traffic.callers.length)
    expect(traffic.callers).not.toContain('support/not-the-demos')
    const outsider = await prisma.agent.findFirstOrThrow({ where: { name: 'not-the-demos' } })
    expect(await prisma.agentCredential.count({ where: { agentId: outsider.id } })).toBe(0)
  }, 150_000)
})
