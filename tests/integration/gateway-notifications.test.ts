// Tool set changes reach connected agents, by each revision's means, from any gateway process: two
// gateway processes (scripts/gateway.ts) against one database; an agent on 2025-11-25 (SDK v1: the
// GET stream it opens after initialize, notifications/tools/list_changed) and one on 2026-07-28
// (SDK v2: subscriptions/listen). A change made through the API in this process reaches both through
// PostgreSQL's NOTIFY; an agent whose tool list did not change hears nothing.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Client as ModernClient } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { agentClient, modernAgentClient, setUpGatewayRegistry, spawnGateway, startRestUpstream, startUpstreamMcp } from '../support/gateway-fixtures'
import { until } from '../support/until'
import { call } from './helpers'

let mcp: Awaited<ReturnType<typeof startUpstreamMcp>>
let rest: Awaited<ReturnType<typeof startRestUpstream>>
let gateways: Array<Awaited<ReturnType<typeof spawnGateway>>> = []
const heard = { legacyA: [] as number[], modernA: [] as number[], legacyB: [] as number[], modernB: [] as number[] }
let legacyA: Client
let legacyB: Client
let modernA: ModernClient
let modernB: ModernClient

const agentA = (toggles: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-a, namespace: gw }
spec:
  languageTools: [upstream]
  grants: [things.create, tickets.create, flaky.read, flaky.write, flaky.put, broken.lookup, pay.charge, limited.ping, quiet.ping, secret.only_b, denied.here, toggled.off, shell.echo, shell.sleep, slow.read, local.summarize]
  toggles: { ${toggles} }
`

const agentB = (toggles: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-b, namespace: gw }
spec:
  languageTools: [upstream]
  grants: [secret.only_b, slow.read]
  rateLimit: { callsPerMinute: 4 }
  toggles: { ${toggles} }
`

async function apply(body: string) {
  const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body })
  expect(applied.status, applied.text).toBe(200)
}

const everyoneHeard = (count: number) => Object.values(heard).every((h) => h.length >= count)

beforeAll(async () => {
  mcp = await startUpstreamMcp()
  rest = await startRestUpstream()
  const tokens = await setUpGatewayRegistry(mcp.url, rest.url, 'sk-notify-7788')
  gateways = await Promise.all([spawnGateway(), spawnGateway()])
  // Each agent has a client of each generation, and the two generations sit on different processes.
  legacyA = await agentClient(gateways[0].url, tokens.tokenA)
  modernA = await modernAgentClient(gateways[1].url, tokens.tokenA)
  legacyB = await agentClient(gateways[1].url, tokens.tokenB)
  modernB = await modernAgentClient(gateways[0].url, tokens.tokenB)
  legacyA.setNotificationHandler(ToolListChangedNotificationSchema, async () => void heard.legacyA.push(Date.now()))
  legacyB.setNotificationHandler(ToolListChangedNotificationSchema, async () => void heard.legacyB.push(Date.now()))
  modernA.setNotificationHandler('notifications/tools/list_changed', async () => void heard.modernA.push(Date.now()))
  modernB.setNotificationHandler('notifications/tools/list_changed', async () => void heard.modernB.push(Date.now()))
  const subscriptions = await Promise.all([modernA.listen({ toolsListChanged: true }), modernB.listen({ toolsListChanged: true })])
  for (const s of subscriptions) expect(s.honoredFilter).toMatchObject({ toolsListChanged: true })
  // The 2025-era clients open their GET streams after initialize, in the background: changes to both
  // agents are made until all four clients have heard one, so every stream is open. Then both agents
  // are as the fixtures made them again, that is heard too, and the record starts empty.
  let flipped = false
  await until(
    'every agent stream to be open',
    async () => {
      if (everyoneHeard(1)) return true
      flipped = !flipped
      await apply(agentA(flipped ? 'toggled.off: false, quiet.ping: false' : 'toggled.off: false'))
      await apply(agentB(flipped ? 'slow.read: false' : ''))
      return false
    },
    { timeoutMs: 30_000, everyMs: 200 },
  )
  const heardSoFar = Math.max(...Object.values(heard).map((h) => h.length))
  if (flipped) {
    await apply(agentA('toggled.off: false'))
    await apply(agentB(''))
    await until('every agent to hear its list restored', () => everyoneHeard(heardSoFar + 1), { timeoutMs: 10_000, everyMs: 10 })
  }
  for (const h of Object.values(heard)) h.length = 0
}, 90_000)

afterAll(async () => {
  await Promise.all([legacyA, legacyB, modernA, modernB].map((c) => c?.close().catch(() => {})))
  await Promise.all(gateways.map((g) => g.stop()))
  await mcp?.close()
  await rest?.close()
})

describe('tool list changes reach connected agents', () => {
  it('reaches the changed agent on both revisions and both processes, and only that agent', async () => {
    expect((await legacyA.listTools()).tools.map((t) => t.name)).toContain('flaky.read')
    const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: agentA('toggled.off: false, flaky.read: false') })
    expect(applied.status).toBe(200)
    const committed = Date.now()
    await until('list_changed on both revisions', () => heard.legacyA.length > 0 && heard.modernA.length > 0, { timeoutMs: 10_000, everyMs: 10 })
    console.log(`list_changed after the change: 2025-11-25 ${heard.legacyA[0] - committed} ms, 2026-07-28 ${heard.modernA[0] - committed} ms`)
    expect((await legacyA.listTools()).tools.map((t) => t.name)).not.toContain('flaky.read')
    expect((await modernA.listTools()).tools.map((t) => t.name)).not.toContain('flaky.read')
    // Agent B's list did not change: it hears nothing. A later change of B's own is heard on the same
    // streams after anything sent before it, so once B hears that one, B heard exactly one.
    await apply(agentB('slow.read: false'))
    await until('list_changed for agent B', () => heard.legacyB.length > 0 && heard.modernB.length > 0, { timeoutMs: 10_000, everyMs: 10 })
    expect(heard.legacyB).toHaveLength(1)
    expect(heard.modernB).toHaveLength(1)
    // B as it was, and heard as such: a change made before this is heard could be looked at together
    // with the next one, and the two would cancel out.
    await apply(agentB(''))
    await until('agent B to hear its list restored', () => heard.legacyB.length > 1 && heard.modernB.length > 1, { timeoutMs: 10_000, everyMs: 10 })
  })

  it('stays quiet for a change that leaves the list as it was, and tells again when it changes back', async () => {
    const before = { legacy: heard.legacyA.length, modern: heard.modernA.length, b: heard.legacyB.length }
    // The same document again: stored unchanged, nothing to hear. A change of agent B's after it is
    // compared in the same pass or a later one, so once B hears it, A would have heard by then too.
    await apply(agentA('toggled.off: false, flaky.read: false'))
    await apply(agentB('slow.read: false'))
    await until('list_changed for agent B', () => heard.legacyB.length > before.b, { timeoutMs: 10_000, everyMs: 10 })
    expect(heard.legacyA.length).toBe(before.legacy)
    expect(heard.modernA.length).toBe(before.modern)
    await apply(agentA('toggled.off: false'))
    await until('list_changed on both revisions', () => heard.legacyA.length > before.legacy && heard.modernA.length > before.modern, {
      timeoutMs: 10_000,
      everyMs: 10,
    })
    expect(heard.legacyA.length).toBe(before.legacy + 1)
    expect(heard.modernA.length).toBe(before.modern + 1)
    expect((await modernA.listTools()).tools.map((t) => t.name)).toContain('flaky.read')
  })
})
