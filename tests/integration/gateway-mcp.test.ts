// The gateway as an agent sees it: the official SDK client over streamable HTTP against /mcp, every
// pipeline stage's refusal, execution of mcp, rest and os tools, and what ends up in the call log.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { agentClient, inOneRateWindow, startGatewayWorld } from '../support/gateway-fixtures'
import { rejectionOf } from '../support/rejection-of'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

const SECRET = 'sk-live-VERY-distinctive-0f9e8d7c'
let mcp: World['mcp']
let rest: World['rest']
let gatewayUrl: string
let world: World
let tokens: World['tokens']
let client: Client

const lastCall = (toolId: string) => prisma.toolCall.findFirstOrThrow({ where: { toolId }, orderBy: { startedAt: 'desc' } })

beforeAll(async () => {
  process.env.TOOLROOM_ENABLE_OS_TOOLS = '1'
  reloadConfig()
  world = await startGatewayWorld(SECRET)
  ;({ mcp, rest, tokens, gatewayUrl } = world)
  client = await agentClient(gatewayUrl, tokens.tokenA)
})

afterAll(async () => {
  await client?.close()
  await world?.stop()
})

describe('MCP gateway with the official SDK client', () => {
  it('initializes and lists exactly the enabled effective tools, with annotations', async () => {
    expect(client.getServerVersion()?.name).toBe('toolroom-gateway')
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name)
    expect(names).toContain('upstream.echo')
    expect(names).toContain('things.create')
    expect(names).toContain('toolroom.approval_status')
    // denied by safety, disabled by a toggle: not listed
    expect(names).not.toContain('secret.only_b')
    expect(names).not.toContain('denied.here')
    expect(names).not.toContain('toggled.off')
    const echo = tools.find((t) => t.name === 'upstream.echo')!
    expect(echo.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, destructiveHint: false })
    const write = tools.find((t) => t.name === 'flaky.write')!
    expect(write.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false })
  })

  it('forwards an mcp tool to its server and records the call', async () => {
    const before = mcp.counts.echo
    const result = await client.callTool({ name: 'upstream.echo', arguments: { text: 'hello' } })
    expect(result.structuredContent).toEqual({ echo: 'hello' })
    expect(mcp.counts.echo).toBe(before + 1)
    const row = await lastCall('upstream.echo')
    expect(row).toMatchObject({
      outcome: 'succeeded',
      channel: 'mcp',
      agentName: 'agent-a',
      agentNamespace: 'gw',
      provenance: 'mcp:upstream',
      level: 'read_only',
      attempts: 1,
    })
    expect(row.args).toEqual({ text: 'hello' })
    expect(row.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('passes an upstream tool error through as a failed call', async () => {
    const result = await client.callTool({ name: 'upstream.explode', arguments: {} })
    expect(result.isError).toBe(true)
    expect((await lastCall('upstream.explode')).outcome).toBe('failed')
  })

  it('refuses unknown tools with -32602 (an unknown tool, not an unknown method), the reason in data, and records them as denied', async () => {
    const e = await rejectionOf(client.callTool({ name: 'nope.nothing', arguments: {} }), McpError)
    expect(e.code).toBe(-32602)
    expect((e.data as { reason: string }).reason).toMatch(/effective set/)
    expect((await lastCall('nope.nothing')).errorCode).toBe('unknown_tool')
  })

  it('refuses tools safety denies (allowedAgents, deniedNamespaces) and disabled ones, with the reason', async () => {
    const onlyB = await rejectionOf(client.callTool({ name: 'secret.only_b', arguments: {} }), McpError)
    expect(onlyB.code).toBe(-32602)
    expect(onlyB.message).toMatch(/allowedAgents/)
    expect((onlyB.data as { reason: string }).reason).toMatch(/allowedAgents/)
    const ns = await rejectionOf(client.callTool({ name: 'denied.here', arguments: {} }), McpError)
    expect(ns.message).toMatch(/deniedNamespaces/)
    const off = await rejectionOf(client.callTool({ name: 'toggled.off', arguments: {} }), McpError)
    expect(off.code).toBe(-32602)
    expect(off.message).toMatch(/toggle/)
    expect(await lastCall('secret.only_b')).toMatchObject({ outcome: 'denied', errorCode: 'safety' })
    expect(await lastCall('denied.here')).toMatchObject({ outcome: 'denied', errorCode: 'safety' })
    expect(await lastCall('toggled.off')).toMatchObject({ outcome: 'denied', errorCode: 'disabled' })
    expect(rest.seen.some((s) => s.path === '/only-b' || s.path === '/denied' || s.path === '/off')).toBe(false)
  })

  it('lets the agent that allowedAgents names call the tool', async () => {
    const b = await agentClient(gatewayUrl, tokens.tokenB)
    const result = await b.callTool({ name: 'secret.only_b', arguments: {} })
    expect(result.structuredContent).toMatchObject({ ok: true })
    await b.close()
  })

  it('answers schema violations with a tool execution error (isError) naming each one, so the model can correct itself, and runs nothing', async () => {
    const seen = rest.seen.length
    const result = await client.callTool({ name: 'tickets.create', arguments: { subject: 7, priority: 'whenever', extra: true } })
    expect(result.isError).toBe(true)
    const text = (result.content as Array<{ type: string; text: string }>)[0].text
    for (const path of ['/body', '/subject', '/priority', '/extra']) expect(text).toContain(path)
    expect(result.structuredContent).toMatchObject({ error: 'invalid_arguments', tool: 'tickets.create' })
    const violations = (result.structuredContent as { violations: Array<{ path: string; rule: string }> }).violations
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/body', rule: 'required' }),
        expect.objectContaining({ path: '/subject', rule: 'type' }),
        expect.objectContaining({ path: '/priority', rule: 'enum' }),
        expect.objectContaining({ path: '/extra', rule: 'additionalProperties' }),
      ]),
    )
    expect(rest.seen.length).toBe(seen)
    expect((await lastCall('tickets.create')).outcome).toBe('invalid_arguments')
  })

  it('enforces the per-minute rate limit of a tool with -32029 and records rate_limited', async () => {
    const refusedRecords = () => prisma.toolCall.count({ where: { toolId: 'limited.ping', outcome: 'rate_limited' } })
    const { answers, ran, refused } = await inOneRateWindow('minute', async () => {
      const [ranBefore, refusedBefore] = [rest.hits.get('/ping') ?? 0, await refusedRecords()]
      const answers: unknown[] = []
      for (let i = 0; i < 4; i++) answers.push(await client.callTool({ name: 'limited.ping', arguments: {} }).catch((e: unknown) => e))
      return { answers, ran: (rest.hits.get('/ping') ?? 0) - ranBefore, refused: (await refusedRecords()) - refusedBefore }
    })
    for (const answer of answers.slice(0, 3)) expect(answer).not.toBeInstanceOf(Error)
    const e = answers[3]
    expect(e).toBeInstanceOf(McpError)
    expect((e as McpError).code).toBe(-32029)
    expect((e as McpError).data).toMatchObject({ outcome: 'rate_limited', window: 'minute', limit: 3 })
    expect(ran).toBe(3)
    expect(refused).toBe(1)
  })

  it('answers calls that need approval with approval_required and the call id, and approval_status reports it', async () => {
    const result = await client.callTool({ name: 'pay.charge', arguments: { amount: 5 } })
    expect(result.isError).toBe(true)
    const s = result.structuredContent as { status: string; callId: string }
    expect(s.status).toBe('approval_required')
    expect(rest.hits.get('/charge')).toBeUndefined()
    const row = await prisma.toolCall.findFirstOrThrow({ where: { id: s.callId } })
    expect(row.outcome).toBe('pending_approval')
    const status = await client.callTool({ name: 'toolroom.approval_status', arguments: { callId: s.callId } })
    expect(status.structuredContent).toMatchObject({ callId: s.callId, status: 'pending', outcome: 'pending_approval', tool: 'pay.charge' })
    // another agent cannot see it
    const b = await agentClient(gatewayUrl, tokens.tokenB)
    expect((await rejectionOf(b.callTool({ name: 'toolroom.approval_status', arguments: { callId: s.callId } }), McpError)).code).toBe(-32602)
    await b.close()
  })

  it('returns the first result for a repeated idempotency key and never runs the side effect twice', async () => {
    const first = await client.callTool({ name: 'things.create', arguments: { name: 'alpha' } })
    const again = await client.callTool({ name: 'things.create', arguments: { name: 'alpha' } })
    expect(again).toEqual(first)
    expect(mcp.counts.createThing).toBe(1)
    const rows = await prisma.toolCall.findMany({ where: { toolId: 'things.create' }, orderBy: { startedAt: 'asc' } })
    expect(rows.map((r) => r.outcome)).toEqual(['succeeded', 'deduplicated'])
    expect(rows[0].idempotencyKey).toBe('thing-alpha')
    // a caller-supplied key (in _meta) works for tools without a template
    const a = await client.callTool({ name: 'upstream.create_thing', arguments: { name: 'beta' }, _meta: { idempotencyKey: 'k-1' } })
    const b = await client.callTool({ name: 'upstream.create_thing', arguments: { name: 'beta' }, _meta: { idempotencyKey: 'k-1' } })
    expect(b).toEqual(a)
    expect(mcp.counts.createThing).toBe(2)
  })

  it("offers progressive discovery through the platform tools, and call_tool runs the named tool's pipeline", async () => {
    const servers = await client.callTool({ name: 'toolroom.list_servers', arguments: {} })
    expect((servers.structuredContent as { servers: Array<{ provenance: string }> }).servers.map((s) => s.provenance)).toContain('mcp:upstream')
    const listed = await client.callTool({ name: 'toolroom.list_tools', arguments: { server: 'upstream' } })
    expect((listed.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual([
      'upstream.echo',
      'upstream.create_thing',
      'upstream.explode',
    ])
    const inspected = await client.callTool({ name: 'toolroom.inspect_tool', arguments: { name: 'tickets.create' } })
    expect(inspected.structuredContent).toMatchObject({ name: 'tickets.create', level: 'external_write' })
    const viaDoor = await client.callTool({ name: 'toolroom.call_tool', arguments: { name: 'upstream.echo', arguments: { text: 'door' } } })
    expect(viaDoor.structuredContent).toEqual({ echo: 'door' })
    const e = await rejectionOf(client.callTool({ name: 'toolroom.call_tool', arguments: { name: 'secret.only_b', arguments: {} } }), McpError)
    expect(e.code).toBe(-32602)
  })

  it('runs os tools as an argument vector without a shell, with a timeout', async () => {
    const result = await client.callTool({ name: 'shell.echo', arguments: { text: '$(id); echo pwned > /tmp/x' } })
    expect((result.structuredContent as { stdout: string }).stdout).toBe('$(id); echo pwned > /tmp/x\n')
    const slow = await rejectionOf(client.callTool({ name: 'shell.sleep', arguments: { seconds: '5' } }), McpError)
    expect(slow.code).toBe(-32603)
    expect(slow.message).toMatch(/did not finish within 1 s/)
    expect(await lastCall('shell.sleep')).toMatchObject({ outcome: 'failed', errorCode: 'timeout' })
  })

  it('refuses os tools while they are turned off', async () => {
    delete process.env.TOOLROOM_ENABLE_OS_TOOLS
    reloadConfig()
    try {
      const e = await rejectionOf(client.callTool({ name: 'shell.echo', arguments: { text: 'x' } }), McpError)
      expect(e.message).toMatch(/TOOLROOM_ENABLE_OS_TOOLS/)
      expect(await lastCall('shell.echo')).toMatchObject({ outcome: 'denied', errorCode: 'os_tools_disabled' })
    } finally {
      process.env.TOOLROOM_ENABLE_OS_TOOLS = '1'
      reloadConfig()
    }
  })

  it("enforces the agent's own rate limit (spec.rateLimit) over all its tools", async () => {
    const b = await agentClient(gatewayUrl, tokens.tokenB)
    const refusal = await inOneRateWindow('minute', async () => {
      for (let i = 0; i < 6; i++) {
        try {
          await b.callTool({ name: i % 2 ? 'upstream.echo' : 'secret.only_b', arguments: { text: 'x' } })
        } catch (e) {
          return e as McpError
        }
      }
      return null
    })
    expect(refusal?.code).toBe(-32029)
    expect(refusal?.data).toMatchObject({ appliesTo: 'agent', limit: 4, window: 'minute' })
    await b.close()
  })
})
