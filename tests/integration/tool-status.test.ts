// A Tool's status is observed (README, "Tool status"): conditions for its secret, its MCP server, its
// endpoint against the outbound policy and its recent calls, kept current when any of those changes —
// through apply, REST writes, secret rotation and deletion, discovery runs against a real SDK server
// and the statistics rollup — and shown in the Tool's API answer and in agents' effective sets.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { secretRoutes } from '@/lib/api/secret-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { refreshRecentlyCalledTools, refreshToolStatus } from '@/lib/tools/refresh-tool-status'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { applyManifest, call, resetDatabase, yaml } from './helpers'

const tools = resourceRoutes('Tool')
const secrets = resourceRoutes('Secret')

let upstream: http.Server
let upstreamUrl: string
let listed = ['lookup', 'other']

async function toolStatus(name: string) {
  const res = await call(tools.get, `/api/v1/tools/${name}?namespace=st`, { params: { id: name } })
  expect(res.status, res.text).toBe(200)
  const conditions = Object.fromEntries(
    (res.json.status.conditions as { type: string; status: string; reason: string }[]).map((c) => [c.type, `${c.status} ${c.reason}`]),
  )
  return {
    phase: res.json.status.phase as string,
    conditions,
    raw: res.json.status.conditions as { type: string; lastTransitionTime: string; message: string }[],
  }
}

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "ToolCall", "CallStatHourly", "CallStat7d", "CallStatInsertLog", "CallStatDirtyHour"')
  upstream = http.createServer((req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    void answerStatelessMcp(
      () => {
        const server = new McpServer({ name: 'status-probe', version: '1.0.0' })
        for (const name of listed)
          server.registerTool(name, { description: `${name} upstream`, annotations: { readOnlyHint: true } }, async () => ({
            content: [{ type: 'text', text: 'ok' }],
          }))
        return server
      },
      req,
      res,
    )
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()))
})

describe('Tool status', () => {
  it('a REST tool is Failed while its secret is missing, Ready once it exists, Failed again when a rotation drops its key or it is deleted', async () => {
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: st.lookup, namespace: st }
spec:
  type: rest
  description: Looks something up
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  endpoint: { method: GET, url: "http://127.0.0.1:9/lookup/{id}", auth: { type: bearer, secretRef: { name: st-token, key: token } } }
`)
    const missing = await toolStatus('st.lookup')
    expect(missing.phase).toBe('Failed')
    expect(missing.conditions).toEqual({
      SecretAvailable: 'False SecretNotFound',
      EndpointAllowed: 'True AllowedByPolicy',
      CallsSucceeding: 'Unknown NoRecentCalls',
    })
    const endpointSince = missing.raw.find((c) => c.type === 'EndpointAllowed')!.lastTransitionTime

    const secret = await call(secrets.create, '/api/v1/secrets', {
      method: 'POST',
      body: { metadata: { name: 'st-token', namespace: 'st' }, spec: { type: 'bearer', stringData: { token: 'v1-abcdef' } } },
    })
    expect(secret.status, secret.text).toBe(201)
    const ready = await toolStatus('st.lookup')
    expect(ready.phase).toBe('Ready')
    expect(ready.conditions.SecretAvailable).toBe('True SecretFound')
    // Only the condition that flipped moved its transition time.
    expect(ready.raw.find((c) => c.type === 'EndpointAllowed')!.lastTransitionTime).toBe(endpointSince)
    expect(ready.raw.find((c) => c.type === 'SecretAvailable')!.lastTransitionTime >= endpointSince).toBe(true)

    const rotated = await call(secretRoutes.rotate, `/api/v1/secrets/${secret.json.id}/rotate`, {
      method: 'POST',
      params: { id: secret.json.id },
      body: { stringData: { apiKey: 'v2-abcdef' } },
    })
    expect(rotated.status, rotated.text).toBe(200)
    expect((await toolStatus('st.lookup')).conditions.SecretAvailable).toBe('False SecretKeyMissing')

    await call(secretRoutes.rotate, `/api/v1/secrets/${secret.json.id}/rotate`, {
      method: 'POST',
      params: { id: secret.json.id },
      body: { stringData: { token: 'v3-abcdef' } },
    })
    expect((await toolStatus('st.lookup')).phase).toBe('Ready')
    const removed = await call(secrets.remove, `/api/v1/secrets/${secret.json.id}`, { method: 'DELETE', params: { id: secret.json.id } })
    expect(removed.status, removed.text).toBe(204)
    expect(await toolStatus('st.lookup')).toMatchObject({ phase: 'Failed', conditions: { SecretAvailable: 'False SecretNotFound' } })
  })

  it('a REST tool whose endpoint the outbound policy refuses is Failed, saying why', async () => {
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: st.metadata, namespace: st }
spec:
  type: rest
  description: Reads the cloud's instance metadata
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  endpoint: { method: GET, url: "http://169.254.169.254/latest/meta-data" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: st.nowhere, namespace: st }
spec:
  type: rest
  description: Calls a host that does not resolve
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  endpoint: { method: GET, url: "http://no-such-host.invalid/api" }
`)
    const metadata = await toolStatus('st.metadata')
    expect(metadata).toMatchObject({ phase: 'Failed', conditions: { EndpointAllowed: 'False RefusedByPolicy' } })
    expect(metadata.raw.find((c) => c.type === 'EndpointAllowed')!.message).toContain('never allowed')
    expect(await toolStatus('st.nowhere')).toMatchObject({ phase: 'Failed', conditions: { EndpointAllowed: 'False HostNotResolved' } })
  })

  it('an MCP tool follows its server: missing, not yet discovered, Ready, not listing the tool, failed', async () => {
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: probe.lookup, namespace: st }
spec:
  type: mcp
  description: Looks up through the probe server
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  mcpServerRef: { name: probe }
`)
    expect(await toolStatus('probe.lookup')).toMatchObject({ phase: 'Failed', conditions: { ServerReady: 'False ServerNotFound' } })

    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: probe, namespace: st }
spec: { endpoint: "${upstreamUrl}/mcp" }
`)
    expect(await toolStatus('probe.lookup')).toMatchObject({ phase: 'Degraded', conditions: { ServerReady: 'Unknown ServerPending' } })

    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'st', name: 'probe' } } })
    expect((await runMcpDiscovery({ id: server.id, trigger: 'manual' })).status).toBe('succeeded')
    expect(await toolStatus('probe.lookup')).toMatchObject({ phase: 'Ready', conditions: { ServerReady: 'True ServerReady' } })

    listed = ['other']
    expect((await runMcpDiscovery({ id: server.id, trigger: 'manual' })).status).toBe('succeeded')
    expect(await toolStatus('probe.lookup')).toMatchObject({ phase: 'Failed', conditions: { ServerReady: 'False ToolNotListed' } })

    listed = ['lookup', 'other']
    await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect((await toolStatus('probe.lookup')).phase).toBe('Ready')
    // The server goes away: discovery fails, and so does the tool.
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: probe, namespace: st }
spec: { endpoint: "http://127.0.0.1:9/mcp" }
`)
    process.env.TOOLROOM_DISCOVERY_READINESS_SECONDS = '1'
    reloadConfig()
    try {
      expect((await runMcpDiscovery({ id: server.id, trigger: 'manual' })).status).toBe('failed')
    } finally {
      delete process.env.TOOLROOM_DISCOVERY_READINESS_SECONDS
      reloadConfig()
    }
    const failed = await toolStatus('probe.lookup')
    expect(failed).toMatchObject({ phase: 'Failed', conditions: { ServerReady: 'False ServerFailed' } })
    expect(failed.raw.find((c) => c.type === 'ServerReady')!.message).toContain('failed its last discovery')
  })

  it('recent calls that mostly fail make a tool Degraded after the rollup, and the agent sees it in its effective set', async () => {
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: st.flaky, namespace: st }
spec:
  type: function
  description: Fails a lot
  inputSchema: { type: object }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: st }
spec: { image: "registry.test/caller:1", grants: [st.flaky, st.lookup] }
`)
    expect((await toolStatus('st.flaky')).phase).toBe('Ready')
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'st', name: 'caller' } } })
    const outcomes = [...Array(9).fill('failed'), ...Array(3).fill('succeeded')]
    await prisma.toolCall.createMany({
      data: outcomes.map((outcome) => ({
        agentId: agent.id,
        agentNamespace: 'st',
        agentName: 'caller',
        toolId: 'st.flaky',
        toolNamespace: 'st',
        toolKey: 'Tool/st/st.flaky',
        provenance: 'grant',
        channel: 'ingest',
        outcome,
        startedAt: new Date(Date.now() - 60_000),
        latencyMs: 5,
      })),
    })
    await rollupCallStats()
    const refreshed = await refreshRecentlyCalledTools()
    expect(refreshed.changed).toBeGreaterThanOrEqual(1)
    const flaky = await toolStatus('st.flaky')
    expect(flaky).toMatchObject({ phase: 'Degraded', conditions: { CallsSucceeding: 'False HighFailureRate' } })
    expect(flaky.raw[0].message).toBe('9 of 12 calls failed in the last 2 hours (75 %)')

    const view = await call(resourceRoutes('Agent').get, '/api/v1/agents/caller?namespace=st', { params: { id: 'caller' } })
    expect(view.status, view.text).toBe(200)
    const entries = Object.fromEntries(
      (view.json.effectiveTools as { name: string; health?: { phase: string; problems: { reason: string }[] } }[]).map((e) => [e.name, e.health]),
    )
    expect(entries['st.flaky']).toEqual({
      phase: 'Degraded',
      problems: [{ type: 'CallsSucceeding', reason: 'HighFailureRate', message: '9 of 12 calls failed in the last 2 hours (75 %)' }],
    })
    expect(entries['st.lookup']).toMatchObject({ phase: 'Failed', problems: [{ reason: 'SecretNotFound' }] })
  })

  it('writes nothing when nothing changed, so a refresh costs no registry notification', async () => {
    await refreshToolStatus({ all: true })
    const before = await prisma.$queryRaw<{ v: bigint }[]>`SELECT last_value AS v FROM registry_revision`
    const again = await refreshToolStatus({ all: true })
    expect(again.changed).toBe(0)
    expect(again.checked).toBeGreaterThanOrEqual(5)
    const after = await prisma.$queryRaw<{ v: bigint }[]>`SELECT last_value AS v FROM registry_revision`
    expect(after[0].v).toBe(before[0].v)
  })
})
