// Tool search through the real gateway (toolroom.list_tools with a query): it ranks the calling
// agent's own tools and never answers with one outside its set (docs/design/effective-tools.md#tool-search).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentClient, startGatewayWorld, UPSTREAM_TOOL_SCHEMAS } from '../support/gateway-fixtures'
import { agentTools } from '@/lib/gateway/agent-tools'
import { MAX_INDEXES, toolSearchIndex } from '@/lib/gateway/tool-search-index'
import { until } from '../support/until'
import { storeDiscoveredTools } from './helpers'

type World = Awaited<ReturnType<typeof startGatewayWorld>>
interface Found {
  name: string
  score: number
  provenance: string
}

let world: World
let a: Client
let b: Client

const search = async (client: Client, args: Record<string, unknown>) => {
  const result = await client.callTool({ name: 'toolroom.list_tools', arguments: args })
  expect(result.isError).toBeFalsy()
  return (result.structuredContent as { tools: Found[] }).tools
}
const names = (found: Found[]) => found.map((t) => t.name)

beforeAll(async () => {
  world = await startGatewayWorld('sk-search-secret-value')
  a = await agentClient(world.gatewayUrl, world.tokens.tokenA)
  b = await agentClient(world.gatewayUrl, world.tokens.tokenB)
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await world?.stop()
})

describe('tool search in the gateway', () => {
  it('finds the right tool for a task phrased in different words', async () => {
    for (const query of ['open a ticket', 'create support tickets', 'file a new ticket for a customer']) {
      expect(names(await search(a, { query }))[0], query).toBe('tickets.create')
    }
    expect(names(await search(a, { query: 'take a payment' }))[0]).toBe('pay.charge')
    expect(names(await search(a, { query: 'echo some text back' })).slice(0, 3)).toContain('upstream.echo')
    expect(names(await search(a, { query: 'make a thing' }))[0]).toMatch(/^(things\.create|upstream\.create_thing)$/)
  })

  it("never answers with a tool outside the agent's set: another agent's, a denied, toggled-off or in-agent one", async () => {
    const { tools } = await a.listTools()
    const listed = new Set(tools.map((t) => t.name))
    const outside = ['secret.only_b', 'denied.here', 'toggled.off', 'local.summarize']
    for (const name of outside) expect(listed.has(name)).toBe(false)
    for (const query of ['secret only b', 'denied here', 'toggled off', 'summarise text', 'over REST', 'read']) {
      const found = await search(a, { query, limit: 50 })
      for (const t of found) expect(listed.has(t.name), `${query} → ${t.name}`).toBe(true)
    }
    // The tool that allowedAgents gives agent-b is found by agent-b, and agent-b finds nothing of agent-a's grants.
    expect(names(await search(b, { query: 'secret only b' }))[0]).toBe('secret.only_b')
    expect(names(await search(b, { query: 'pay charge', limit: 50 }))).not.toContain('pay.charge')
  })

  it('ranks best first with scores, within the server filter and the limit', async () => {
    const found = await search(a, { query: 'create', limit: 3 })
    expect(found.length).toBeLessThanOrEqual(3)
    expect(found.map((t) => t.score)).toEqual([...found.map((t) => t.score)].sort((x, y) => y - x))
    const upstreamOnly = await search(a, { query: 'create', server: 'upstream' })
    expect(upstreamOnly.length).toBeGreaterThan(0)
    for (const t of upstreamOnly) expect(t.provenance).toBe('mcp:upstream')
  })

  it('lists every tool, unranked, without a query', async () => {
    const all = await search(a, {})
    expect(all.length).toBe((await a.listTools()).tools.length)
    expect(all[0]).not.toHaveProperty('score')
  })

  it('refuses a limit out of range and an overlong query, naming the argument', async () => {
    for (const args of [{ query: 'x', limit: 0 }, { query: 'x', limit: 51 }, { query: 'x'.repeat(1001) }]) {
      const result = await a.callTool({ name: 'toolroom.list_tools', arguments: args })
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.structuredContent)).toMatch(/\/(limit|query)/)
    }
  })

  it('searches the registry as it is now: a tool the server starts offering is found, one it stops offering is not', async () => {
    const query = 'refund an order'
    expect(names(await search(a, { query })).some((n) => n.startsWith('upstream.'))).toBe(false)
    const refund = { name: 'issue_refund', description: 'Refunds an order to the original payment method', inputSchema: { type: 'object' } }
    await storeDiscoveredTools('gw', 'upstream', [...UPSTREAM_TOOL_SCHEMAS, refund])
    await until('the new tool in search', async () => names(await search(a, { query }))[0] === 'upstream.issue_refund')
    await storeDiscoveredTools('gw', 'upstream', UPSTREAM_TOOL_SCHEMAS)
    await until('the tool gone from search', async () => !names(await search(a, { query, limit: 50 })).includes('upstream.issue_refund'))
  })

  it('keeps one index per agent while its tool set stands, and no more than MAX_INDEXES agents', async () => {
    const tools = (await agentTools(world.tokens.agentA))!
    const index = toolSearchIndex(tools)
    expect(toolSearchIndex(tools)).toBe(index)
    // The same agent with another epoch's tool set gets a new index.
    expect(toolSearchIndex({ ...tools })).not.toBe(index)
    const kept = toolSearchIndex(tools)
    for (let i = 0; i < MAX_INDEXES; i++) toolSearchIndex({ ...tools, agent: { ...tools.agent, id: `other-${i}` } })
    expect(toolSearchIndex(tools)).not.toBe(kept)
  })
})
