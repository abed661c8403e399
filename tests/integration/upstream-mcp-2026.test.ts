// Upstream servers that speak only MCP 2026-07-28 (built with SDK v2's server, which refuses
// `initialize`): discovery introspects them and records the revision; the gateway calls their tools
// for agents of either revision; their progress reaches the calling agent; a caller that cancels its
// own call cancels the upstream call. Also: a call waiting for approval reports progress.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client as ModernClient } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { introspectMcpServer } from '@/lib/discovery/introspect-mcp-server'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { createGuardedFetch } from '@/lib/outbound/guarded-fetch'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { mcpTransport } from '@/lib/gateway/mcp-handler'
import { agentClient, modernAgentClient, startGatewayWorld, startModernUpstreamMcp } from '../support/gateway-fixtures'
import { until } from '../support/until'
import { applyManifest } from './helpers'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

let world: World
let modern: Awaited<ReturnType<typeof startModernUpstreamMcp>>
let legacyAgent: Client
let modernAgent: ModernClient

beforeAll(async () => {
  world = await startGatewayWorld('sk-upstream2026-1a2b3c')
  modern = await startModernUpstreamMcp()
  await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: modern, namespace: gw }
spec: { endpoint: "${modern.url}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-a, namespace: gw }
spec:
  languageTools: [upstream, modern]
  grants: [things.create, tickets.create, flaky.read, pay.charge, slow.read]
`)
  const id = (await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'modern' } } })).id
  const run = await runMcpDiscovery({ id, trigger: 'manual' })
  expect(run).toMatchObject({ status: 'succeeded' })
  legacyAgent = await agentClient(world.gatewayUrl, world.tokens.tokenA)
  modernAgent = await modernAgentClient(world.gatewayUrl, world.tokens.tokenA)
}, 60_000)

afterAll(async () => {
  await legacyAgent?.close()
  await modernAgent?.close()
  await world?.stop()
  await modern?.close()
})

describe('discovery of a server that speaks only 2026-07-28', () => {
  it('introspects it with server/discover and tools/list of that revision, and passes the checklist', async () => {
    const result = await introspectMcpServer(
      { endpoint: `${modern.url}/mcp`, transport: 'streamable-http' },
      { fetch: createGuardedFetch(parseAddressPolicy('loopback')), requestTimeoutMs: 3000 },
    )
    expect(result.transport).toBe('streamable-http-2026-07-28')
    expect(result.protocolVersion).toBe('2026-07-28')
    expect(result.serverInfo).toEqual({ name: 'upstream-2026', version: '2.0.0' })
    expect(result.tools.map((t) => t.name).sort()).toEqual(['echo', 'progress', 'regional', 'wait'])
    expect(result.tools.find((t) => t.name === 'regional')?.inputSchema).toMatchObject({ properties: { region: { 'x-mcp-header': 'Region' } } })
    expect(result.compliance.items.filter((i) => i.status !== 'pass')).toEqual([])
    expect(result.compliance.status).toBe('pass')
    expect(result.compliance.items.find((i) => i.id === 'json-rpc')?.detail).toMatch(/server\/discover answered/)
  })

  it('records the revision as the transport the gateway uses', async () => {
    const row = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'modern' } } })
    expect(row).toMatchObject({ detectedTransport: 'streamable-http-2026-07-28', phase: 'Ready' })
  })
})

describe('the gateway calls it', () => {
  it('for an agent on 2025-11-25 and one on 2026-07-28', async () => {
    const a = await legacyAgent.callTool({ name: 'modern.echo', arguments: { text: 'from 2025' } })
    const b = await modernAgent.callTool({ name: 'modern.echo', arguments: { text: 'from 2026' } })
    expect(a.structuredContent).toEqual({ echo: 'from 2025' })
    expect(b.structuredContent).toEqual({ echo: 'from 2026' })
    expect(modern.counts.echo).toBe(2)
    const rows = await prisma.toolCall.findMany({ where: { toolId: 'modern.echo' } })
    expect(rows.map((r) => r.outcome)).toEqual(['succeeded', 'succeeded'])
  })

  it('mirrors a parameter its tool marks x-mcp-header into the header the upstream checks', async () => {
    const result = await legacyAgent.callTool({ name: 'modern.regional', arguments: { region: 'eu-west-1', query: 'q' } })
    expect(result.structuredContent).toEqual({ region: 'eu-west-1', query: 'q' })
    expect(modern.counts.regional).toBe(1)
  })

  it("passes the upstream's progress to the calling agent, on either revision", async () => {
    const legacyProgress: Array<{ progress: number; total?: number; message?: string }> = []
    const modernProgress: Array<{ progress: number; total?: number; message?: string }> = []
    const a = await legacyAgent.callTool({ name: 'modern.progress', arguments: {} }, undefined, { onprogress: (p) => void legacyProgress.push(p) })
    const b = await modernAgent.callTool({ name: 'modern.progress', arguments: {} }, { onprogress: (p) => void modernProgress.push(p) })
    expect(a.structuredContent).toEqual({ steps: 3 })
    expect(b.structuredContent).toEqual({ steps: 3 })
    for (const seen of [legacyProgress, modernProgress]) expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })))
  })

  it('cancels the upstream call when the agent cancels its own call (2025-11-25: notifications/cancelled)', async () => {
    const before = modern.counts.cancelled
    const seen = modern.counts.wait
    const controller = new AbortController()
    const pending = legacyAgent.callTool({ name: 'modern.wait', arguments: { ms: 20_000 } }, undefined, { signal: controller.signal })
    await until('the upstream to start the call', () => modern.counts.wait > seen)
    controller.abort('changed my mind')
    await expect(pending).rejects.toThrow()
    await until('the upstream to hear the cancellation', () => modern.counts.cancelled > before)
    await until('the call recorded as failed', async () => (await prisma.toolCall.count({ where: { toolId: 'modern.wait', outcome: 'failed' } })) === 1)
    await until('no upstream request in flight', () => mcpTransport().inFlight === 0)
  })

  it('cancels the upstream call when the agent closes its request (2026-07-28: the stream is the request)', async () => {
    const before = modern.counts.cancelled
    const seen = modern.counts.wait
    const controller = new AbortController()
    const pending = modernAgent.callTool({ name: 'modern.wait', arguments: { ms: 20_000 } }, { signal: controller.signal })
    await until('the upstream to start the call', () => modern.counts.wait > seen)
    controller.abort('changed my mind')
    await expect(pending).rejects.toThrow()
    await until('the upstream to hear the cancellation', () => modern.counts.cancelled > before)
    await until('the call recorded as failed', async () => (await prisma.toolCall.count({ where: { toolId: 'modern.wait', outcome: 'failed' } })) === 2)
  })
})

describe('a call waiting for approval', () => {
  it('reports progress while it waits instead of holding a silent connection', async () => {
    const seen: Array<{ progress: number; message?: string }> = []
    const result = await legacyAgent.callTool({ name: 'pay.charge', arguments: {}, _meta: { 'toolroom/waitForApprovalSeconds': 3 } }, undefined, {
      onprogress: (p) => void seen.push(p),
      timeout: 20_000,
    })
    expect(result.structuredContent).toMatchObject({ status: 'approval_required' })
    expect(seen.length).toBeGreaterThanOrEqual(1)
    expect(seen[0].message).toMatch(/waiting for a person to approve pay\.charge \(pending/)
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress)
    const modernSeen: Array<{ progress: number; message?: string }> = []
    await modernAgent.callTool(
      { name: 'pay.charge', arguments: {}, _meta: { 'toolroom/waitForApprovalSeconds': 2 } },
      { onprogress: (p) => void modernSeen.push(p), timeout: 20_000 },
    )
    expect(modernSeen.length).toBeGreaterThanOrEqual(1)
  })
})
