// Two gateway processes (scripts/gateway.ts, the code that serves /mcp in production) against one
// database: rate limits hold across them, and concurrent identical calls to a non-idempotent tool run
// upstream exactly once.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { agentClient, inOneRateWindow, setUpGatewayRegistry, spawnGateway, startRestUpstream, startUpstreamMcp } from '../support/gateway-fixtures'

let mcp: Awaited<ReturnType<typeof startUpstreamMcp>>
let rest: Awaited<ReturnType<typeof startRestUpstream>>
let gateways: Array<Awaited<ReturnType<typeof spawnGateway>>> = []
let clients: Client[] = []

beforeAll(async () => {
  mcp = await startUpstreamMcp({ createDelayMs: 300 })
  rest = await startRestUpstream()
  const tokens = await setUpGatewayRegistry(mcp.url, rest.url, 'sk-processes-1234')
  gateways = await Promise.all([spawnGateway(), spawnGateway()])
  clients = await Promise.all(gateways.map((g) => agentClient(g.url, tokens.tokenA)))
}, 90_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})))
  await Promise.all(gateways.map((g) => g.stop()))
  await mcp?.close()
  await rest?.close()
})

describe('two gateway processes, one database', () => {
  it('hold a per-minute rate limit together', async () => {
    const refusedRecords = () => prisma.toolCall.count({ where: { toolId: 'limited.ping', outcome: 'rate_limited' } })
    const { outcomes, ran, refused } = await inOneRateWindow('minute', async () => {
      const [ranBefore, refusedBefore] = [rest.hits.get('/ping') ?? 0, await refusedRecords()]
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          clients[i % 2].callTool({ name: 'limited.ping', arguments: {} }).then(
            () => 'ok',
            (e) => (e instanceof McpError && e.code === -32029 ? 'limited' : `error ${e}`),
          ),
        ),
      )
      return { outcomes, ran: (rest.hits.get('/ping') ?? 0) - ranBefore, refused: (await refusedRecords()) - refusedBefore }
    })
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3)
    expect(outcomes.filter((o) => o === 'limited')).toHaveLength(7)
    expect(ran).toBe(3)
    expect(refused).toBe(7)
  })

  it('run 50 concurrent identical calls of a non-idempotent tool upstream exactly once', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 2].callTool({ name: 'things.create', arguments: { name: 'once' } })))
    expect(mcp.counts.createThing).toBe(1)
    for (const answer of answers) expect(answer).toEqual(answers[0])
    expect(answers[0].structuredContent).toEqual({ name: 'once', number: 1 })
    const rows = await prisma.toolCall.groupBy({ by: ['outcome'], where: { toolId: 'things.create' }, _count: true })
    expect(Object.fromEntries(rows.map((r) => [r.outcome, r._count]))).toEqual({ succeeded: 1, deduplicated: 49 })
  })
})
