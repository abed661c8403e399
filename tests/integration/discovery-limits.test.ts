// Discovered tools keep the limits of applied ones (docs/design/discovery.md#limits): a hostile MCP
// server of the test's own (the official SDK's low-level Server, which sends whatever it is given)
// and a hostile image listener list one good tool beside schemas 1,500 levels deep, $ref chains and
// loops, a pattern RE2 cannot run, a schema of megabytes, a huge description and unusable names.
// Discovery keeps the good tool (stored, listed, callable) and refuses each other one with its reason,
// in the run and in the surface change. A schema stored before these limits fails its tool's calls
// and explanations by the rule's name, never with a stack overflow.
import type http from 'node:http'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discoveryRoutes } from '@/lib/api/discovery-routes'
import { explainRoutes } from '@/lib/api/explain-routes'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { prisma } from '@/lib/db'
import { runImageDiscovery } from '@/lib/discovery/run-image-discovery'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { agentClient } from '../support/gateway-fixtures'
import { listen, type Listening, listenOn } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'
import { applyManifest, call, issueAgentCredential, yaml } from './helpers'

const DIGEST = `sha256:${'ef'.repeat(32)}`
const TOO_DEEP = 'nests deeper than the limit of 32 levels'

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' }
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } }
  return schema
}

function refChain(length: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < length; i++) $defs[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` } } }
  $defs[`d${length}`] = { type: 'string' }
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs }
}

const REF_LOOP = { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } }
const manyProperties = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])) })
const ECHO_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }

/** Each hostile entry with what its refusal must say. */
const HOSTILE: Array<{ entry: Record<string, unknown>; reason: RegExp }> = [
  { entry: { name: 'deep_schema', inputSchema: nested(1500) }, reason: new RegExp(`^inputSchema invalid JSON Schema: ${TOO_DEEP}`) },
  { entry: { name: 'ref_chain', inputSchema: refChain(1500) }, reason: new RegExp(`^inputSchema invalid JSON Schema: ${TOO_DEEP}`) },
  { entry: { name: 'ref_loop', inputSchema: REF_LOOP }, reason: /^inputSchema invalid JSON Schema: \$ref cycle that never descends into the value/ },
  {
    entry: { name: 'lookaround', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(?=a)(a+)+$' } } } },
    reason: /^inputSchema invalid JSON Schema: \/properties\/s\/pattern: pattern .* cannot run in linear time/,
  },
  {
    entry: { name: 'huge_schema', inputSchema: manyProperties(20_000) },
    reason: /^inputSchema invalid JSON Schema: is \d+ bytes as JSON, over the limit of 131072 bytes/,
  },
  {
    entry: { name: 'chatty', description: 'x'.repeat(100_000), inputSchema: { type: 'object' } },
    reason: /^description must be at most 4000 characters, got 100000/,
  },
  {
    entry: { name: 'deep_output', inputSchema: { type: 'object' }, outputSchema: nested(1500) },
    reason: new RegExp(`^outputSchema invalid JSON Schema: ${TOO_DEEP}`),
  },
  { entry: { name: 'n'.repeat(5000), inputSchema: { type: 'object' } }, reason: /has a name of 5000 characters; a tool name is at most 256/ },
  { entry: { name: 'nul\u0000name', inputSchema: { type: 'object' } }, reason: /^name must not contain NUL characters/ },
]

const servers: Listening[] = []
let listed: Array<Record<string, unknown>> = []
const echoed: string[] = []
let gateway: Listening
let client: Client
let agentId: string

function hostileMcpServer() {
  const server = new Server({ name: 'hostile', version: '6.6.6' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }) as never)
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String((request.params.arguments as { text?: unknown } | undefined)?.text)
    echoed.push(text)
    return { content: [{ type: 'text', text }] }
  })
  return server
}

const health = (req: http.IncomingMessage, res: http.ServerResponse) =>
  (req.url ?? '').startsWith('/health') && Boolean(res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'))

const explain = async (tool: string, args: Record<string, unknown>) => {
  const res = await call(explainRoutes.explain, `/api/v1/agents/${agentId}/explain`, {
    method: 'POST',
    body: { tool, arguments: args },
    params: { id: agentId },
  })
  expect(res.status, res.text).toBe(200)
  return res.json as { steps: Array<{ step: string; outcome: string; detail: string }> }
}
const stepOf = (x: { steps: Array<{ step: string; outcome: string; detail: string }> }, step: string) => x.steps.find((s) => s.step === step)!

beforeAll(async () => {
  const mcp = await listen((req, res) => {
    if (health(req, res)) return
    void answerStatelessMcp(hostileMcpServer, req, res)
  })
  servers.push(mcp)
  await prisma.$executeRawUnsafe(
    'TRUNCATE "LanguageTool", "Agent", "DiscoveryRun", "SurfaceChange", "ToolCall", "AgentCredential", "GatewayRateCounter", "GatewayIdempotency"',
  )
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: hostile, namespace: lim }
spec: { endpoint: "${mcp.url}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: upgraded, namespace: lim }
spec: { endpoint: "${mcp.url}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: lim }
spec: { languageTools: [hostile, upgraded] }
`)
  agentId = (await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'lim', name: 'caller' } } })).id
  const agentToken = await issueAgentCredential(agentId)
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  client = await agentClient(gateway.url, agentToken)
})

afterAll(async () => {
  await client?.close()
  await closeMcpSessions()
  await gateway?.close()
  await Promise.all(servers.map((s) => s.close()))
})

describe('an MCP server listing tools beyond the limits', () => {
  it('keeps the good tool (stored, listed, callable) and refuses each other one with its reason, in the run and the surface change', async () => {
    listed = [{ name: 'echo', description: 'Echoes text', inputSchema: ECHO_SCHEMA }, ...HOSTILE.map((h) => h.entry)]
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'lim', name: 'hostile' } } })
    const outcome = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(outcome.status, outcome.error).toBe('succeeded')

    const stored = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    expect(stored.phase).toBe('Ready')
    expect((stored.toolSchemas as Array<{ name: string }>).map((t) => t.name)).toEqual(['echo'])

    const run = await prisma.discoveryRun.findUniqueOrThrow({ where: { id: outcome.runId! } })
    const refused = (run.details as { refused: Array<{ name: string; reason: string }> }).refused
    expect(refused).toHaveLength(HOSTILE.length)
    HOSTILE.forEach((h, i) => expect(refused[i].reason, String(h.entry.name).slice(0, 40)).toMatch(h.reason))
    expect(refused.map((r) => r.name.slice(0, 12))).toEqual([...HOSTILE.slice(0, -2).map((h) => h.entry.name), 'nnnnnnnnnnnn', 'nul\u2400name'])
    expect(JSON.stringify(refused).length).toBeLessThan(20_000)

    // The surface change says what was added and what was refused, as the API serves it.
    const changes = await call(discoveryRoutes.changes, `/api/v1/discovery/changes?subjectId=${server.id}`)
    expect(changes.status, changes.text).toBe(200)
    expect(changes.json.items).toHaveLength(1)
    const diff = changes.json.items[0].diff
    expect(diff.added.map((t: { name: string }) => t.name)).toEqual(['echo'])
    expect(diff.refused).toEqual(refused)

    // The good tool is listed to the agent and runs through the gateway.
    await until('the gateway lists hostile.echo', async () => (await client.listTools()).tools.some((t) => t.name === 'hostile.echo'))
    const tools = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('hostile.'))
    expect(tools).toEqual(['hostile.echo'])
    const result = await client.callTool({ name: 'hostile.echo', arguments: { text: 'still works' } })
    expect(result.isError ?? false).toBe(false)
    expect(echoed).toContain('still works')
    expect(stepOf(await explain('hostile.echo', { text: 'x' }), 'arguments').outcome).toBe('passed')
  })

  it('records a change again only when a tool is newly refused', async () => {
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'lim', name: 'hostile' } } })
    const count = () => prisma.surfaceChange.count({ where: { subjectId: server.id } })
    const before = await count()
    expect((await runMcpDiscovery({ id: server.id, trigger: 'manual' })).status).toBe('succeeded')
    expect(await count()).toBe(before)

    listed = [...listed, { name: 'deeper_still', inputSchema: nested(1600) }]
    const outcome = await runMcpDiscovery({ id: server.id, trigger: 'manual' })
    expect(outcome.status).toBe('succeeded')
    const change = await prisma.surfaceChange.findFirstOrThrow({ where: { runId: outcome.runId } })
    const diff = change.diff as { added: unknown[]; removed: unknown[]; changed: unknown[]; refused: Array<{ name: string; reason: string }> }
    expect([diff.added, diff.removed, diff.changed]).toEqual([[], [], []])
    expect(diff.refused.at(-1)).toEqual({ name: 'deeper_still', reason: expect.stringContaining(TOO_DEEP) })
  })
})

describe('a schema stored before the limits (a database that upgraded)', () => {
  it('fails its own tool cleanly, naming the rule, in calls and in explain; the other tools still run', async () => {
    // As discovery stored them then: Prisma's own serializer overflows on such a value.
    const toolSchemas = [
      { name: 'echo', description: 'Echoes text', inputSchema: ECHO_SCHEMA },
      { name: 'deep_schema', description: 'Stored long ago', inputSchema: nested(1500) },
      { name: 'ref_chain', description: 'Stored long ago', inputSchema: refChain(1500) },
      { name: 'ref_loop', description: 'Stored long ago', inputSchema: REF_LOOP },
    ]
    await prisma.$executeRaw`UPDATE "LanguageTool" SET "toolSchemas" = ${JSON.stringify(toolSchemas)}::json, phase = 'Ready', "lastIntrospectedAt" = now()
      WHERE namespace = 'lim' AND name = 'upgraded'`
    await until('the gateway lists upgraded.ref_loop', async () => (await client.listTools()).tools.some((t) => t.name === 'upgraded.ref_loop'))

    for (const [tool, rule] of [
      ['upgraded.deep_schema', TOO_DEEP],
      ['upgraded.ref_chain', TOO_DEEP],
      ['upgraded.ref_loop', '$ref cycle that never descends into the value'],
    ]) {
      const result = await client.callTool({ name: tool, arguments: { x: { a: 'b' } } })
      const text = (result.content as Array<{ text: string }>)[0].text
      expect(result.isError, tool).toBe(true)
      expect(text).toContain(`the tool's inputSchema cannot be used: `)
      expect(text).toContain(rule)
      expect(text).not.toMatch(/call stack/i)
      const step = stepOf(await explain(tool, { x: { a: 'b' } }), 'arguments')
      expect(step.outcome).toBe('refused')
      expect(step.detail).toContain(rule)
    }
    const row = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'upgraded.deep_schema' }, orderBy: { startedAt: 'desc' } })
    expect(row.outcome).toBe('invalid_arguments')
    expect(echoed).not.toContain('never')
    const fine = await client.callTool({ name: 'upgraded.echo', arguments: { text: 'upgraded echo' } })
    expect(fine.isError ?? false).toBe(false)
  })
})

describe("an image's /a2a/tools beyond the limits", () => {
  it('keeps the good tool and refuses each other one with its reason, in the run and the surface change', async () => {
    const entries = [
      { name: 'acme.good', description: 'Fine', inputSchema: ECHO_SCHEMA },
      { name: 'acme.deep_schema', description: 'Deep', inputSchema: nested(1500) },
      { name: 'acme.ref_chain', description: 'Chained', inputSchema: refChain(1500) },
      { name: 'acme.ref_loop', description: 'Loops', inputSchema: REF_LOOP },
      { name: 'acme.lookaround', description: 'Backtracks', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '(a)\\1' } } } },
      { name: 'acme.huge_schema', description: 'Huge', inputSchema: manyProperties(20_000) },
      { name: 'acme.nul', description: 'a\u0000b', inputSchema: { type: 'object' } },
      { name: 'Not A Tool Id', description: 'Bad name', inputSchema: { type: 'object' } },
    ]
    const image = await listen((req, res) => {
      const path = (req.url ?? '').split('?')[0]
      if (path === '/.well-known/agent.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"hostile-image"}')
      if (path === '/a2a/tools') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entries))
      res.writeHead(404).end()
    })
    servers.push(image)
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: imaged, namespace: lim }
spec: { image: "registry.example/hostile@${DIGEST}", endpoint: "${image.url}" }
`)
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'lim', name: 'imaged' } } })
    const outcome = await runImageDiscovery({ kind: 'Agent', id: agent.id, trigger: 'manual' })
    expect(outcome.status, outcome.error).toBe('succeeded')

    const cached = await call(fleetRoutes('Agent').getImageTools, `/api/v1/agents/${agent.id}/image-tools`, { params: { id: agent.id } })
    expect(cached.status, cached.text).toBe(200)
    expect(cached.json.tools.map((t: { name: string }) => t.name)).toEqual(['acme.good'])

    const run = await prisma.discoveryRun.findUniqueOrThrow({ where: { id: outcome.runId! } })
    const refused = (run.details as { refused: Array<{ field: string; rule: string; message: string }> }).refused
    expect(refused.map((r) => [r.field, r.rule])).toEqual([
      ['tools[1].inputSchema', 'json-schema'],
      ['tools[2].inputSchema', 'json-schema'],
      ['tools[3].inputSchema', 'json-schema'],
      ['tools[4].inputSchema', 'json-schema'],
      ['tools[5].inputSchema', 'json-schema'],
      ['tools[6].description', 'storable-text'],
      ['tools[7].name', 'canonical-id'],
    ])
    expect(refused[0].message).toContain(TOO_DEEP)
    expect(refused[1].message).toContain(TOO_DEEP)
    expect(refused[2].message).toContain('$ref cycle that never descends into the value')
    expect(refused[3].message).toContain('cannot run in linear time')
    expect(refused[4].message).toMatch(/is \d+ bytes as JSON, over the limit/)

    const changes = await call(discoveryRoutes.changes, `/api/v1/discovery/changes?subjectId=${agent.id}`)
    expect(changes.status, changes.text).toBe(200)
    expect(changes.json.items[0].diff.added.map((t: { name: string }) => t.name)).toEqual(['acme.good'])
    expect(changes.json.items[0].diff.refused).toEqual(refused)
  })
})
