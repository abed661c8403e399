// Real parts for gateway tests: an SDK MCP server (streamable HTTP, stateless) and a REST server that
// count what they execute, a registry applied through the API, agent credentials, and gateway
// processes (in this process, or spawned from scripts/gateway.ts: the code that serves /mcp).
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, McpServer as ModernMcpServer } from '@modelcontextprotocol/server'
import { Readable } from 'node:stream'
import { z } from 'zod'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { createGatewayServer } from '@/lib/gateway/server'
import { listen, type Listening, listenOn } from './listen'
import { answerStatelessMcp } from './stateless-mcp'
import { stopChild } from '@/scripts/stop-child.mjs'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : undefined
}

/** What the upstream MCP server has executed, by tool. */
export interface UpstreamCounts {
  echo: number
  createThing: number
}

export async function startUpstreamMcp(opts: { createDelayMs?: number } = {}): Promise<Listening & { counts: UpstreamCounts }> {
  const counts: UpstreamCounts = { echo: 0, createThing: 0 }
  const build = () => {
    const server = new McpServer({ name: 'upstream', version: '1.0.0' })
    server.registerTool(
      'echo',
      { description: 'Echoes text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true, openWorldHint: false } },
      async ({ text }) => {
        counts.echo++
        return { content: [{ type: 'text', text }], structuredContent: { echo: text } }
      },
    )
    server.registerTool(
      'create_thing',
      {
        description: 'Creates a thing (not idempotent)',
        inputSchema: { name: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      },
      async ({ name }) => {
        const n = ++counts.createThing
        await new Promise((r) => setTimeout(r, opts.createDelayMs ?? 0))
        return { content: [{ type: 'text', text: `created ${name} #${n}` }], structuredContent: { name, number: n } }
      },
    )
    server.registerTool('explode', { description: 'Always fails', inputSchema: {} }, async () => ({
      isError: true,
      content: [{ type: 'text', text: 'it blew up' }],
    }))
    return server
  }
  const running = await listen(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(build, req, res)
  })
  return { ...running, counts }
}

/** What the 2026-07-28 upstream saw: calls by tool, and calls whose caller went away before they finished. */
export interface ModernUpstreamCounts {
  echo: number
  regional: number
  progress: number
  wait: number
  cancelled: number
}

/**
 * An upstream that speaks MCP 2026-07-28 only (SDK v2's createMcpHandler, `legacy: 'reject'`): an
 * `initialize` gets -32022. Tools: echo; progress (three progress reports, then a result); wait
 * (answers after `ms`, or notes that its caller cancelled it by closing the stream).
 */
export async function startModernUpstreamMcp(): Promise<Listening & { counts: ModernUpstreamCounts }> {
  const counts: ModernUpstreamCounts = { echo: 0, regional: 0, progress: 0, wait: 0, cancelled: 0 }
  const handler = createMcpHandler(
    () => {
      const server = new ModernMcpServer({ name: 'upstream-2026', version: '2.0.0' })
      server.registerTool(
        'echo',
        { description: 'Echoes text', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true, openWorldHint: false } },
        async ({ text }) => {
          counts.echo++
          return { content: [{ type: 'text', text }], structuredContent: { echo: text } }
        },
      )
      // Its `region` is mirrored into an Mcp-Param-Region header (x-mcp-header), which the SDK checks against the body.
      server.registerTool(
        'regional',
        {
          description: 'Answers from a region',
          inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), query: z.string() }),
          annotations: { readOnlyHint: true },
        },
        async ({ region, query }) => {
          counts.regional++
          return { content: [{ type: 'text', text: `${region}: ${query}` }], structuredContent: { region, query } }
        },
      )
      server.registerTool(
        'progress',
        { description: 'Reports progress three times', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
        async (_args, ctx) => {
          counts.progress++
          const token = ctx.mcpReq._meta?.progressToken
          for (let i = 1; i <= 3; i++) {
            if (token !== undefined)
              await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, message: `step ${i}` } })
            await new Promise((r) => setTimeout(r, 50))
          }
          return { content: [{ type: 'text', text: 'done' }], structuredContent: { steps: 3 } }
        },
      )
      server.registerTool(
        'wait',
        { description: 'Waits', inputSchema: z.object({ ms: z.number() }), annotations: { readOnlyHint: true } },
        async ({ ms }, ctx) => {
          counts.wait++
          const signal = ctx.mcpReq.signal
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms)
            signal.addEventListener(
              'abort',
              () => {
                clearTimeout(timer)
                counts.cancelled++
                resolve()
              },
              { once: true },
            )
          })
          return { content: [{ type: 'text', text: `waited ${ms}` }], structuredContent: { waited: ms } }
        },
      )
      return server
    },
    { legacy: 'reject' },
  )
  const running = await listen(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const left = new AbortController()
    res.on('close', () => !res.writableFinished && left.abort())
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
      signal: left.signal,
    })
    const answer = await handler.fetch(request)
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    if (!answer.body) return void res.end()
    const body = Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>)
    res.on('close', () => body.destroy())
    body.on('error', () => res.destroy())
    body.pipe(res)
  })
  return { ...running, counts }
}

export const UPSTREAM_TOOL_SCHEMAS = [
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'create_thing',
    description: 'Creates a thing (not idempotent)',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  { name: 'explode', description: 'Always fails', inputSchema: { type: 'object' } },
]

export interface RestSeen {
  method: string
  path: string
  authorization: string | undefined
  body: unknown
}

/** A REST upstream: /tickets (records auth), /flaky-read and /flaky-write (503 until the n-th hit), /slow (answers after `ms`), /ping, /charge. */
export async function startRestUpstream(opts: { failuresBeforeSuccess?: number } = {}): Promise<Listening & { seen: RestSeen[]; hits: Map<string, number> }> {
  const seen: RestSeen[] = []
  const hits = new Map<string, number>()
  const running = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const body = req.method === 'GET' ? Object.fromEntries(url.searchParams) : await readJson(req)
    seen.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, body })
    const n = (hits.get(url.pathname) ?? 0) + 1
    hits.set(url.pathname, n)
    const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    if (url.pathname.startsWith('/flaky')) return n <= (opts.failuresBeforeSuccess ?? 2) ? send(503, { error: 'busy' }) : send(200, { ok: true, hit: n })
    if (url.pathname === '/tickets') return send(201, { ticketId: n, token: `result-token-${n}-zq9`, echo: body })
    if (url.pathname === '/broken') return send(400, { error: 'no such customer' })
    if (url.pathname === '/slow') {
      await new Promise((r) => setTimeout(r, Math.min(Number(url.searchParams.get('ms') ?? 1000), 10_000)))
      return send(200, { ok: true, waited: Number(url.searchParams.get('ms') ?? 1000) })
    }
    return send(200, { ok: true, path: url.pathname })
  })
  return { ...running, seen, hits }
}

/** An SDK client speaking to a gateway as an agent. */
export async function agentClient(gatewayUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  await client.connect(transport)
  return client
}

/** A gateway process started from scripts/gateway.ts (the production entry), on a free port. */
export async function spawnGateway(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/gateway.ts'], {
    env: { ...process.env, GATEWAY_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (d) => (stderr += d))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), 30_000)
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/[^/\s]+)\/mcp/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)))
  })
  return {
    url,
    child,
    stop: () => stopChild(child),
  }
}

/** The registry the gateway tests share, in namespace `gw`: one agent with every kind of tool, and a second agent. */
export function gatewayManifest(mcpUrl: string, restUrl: string, secretValue: string): string {
  const rest = (name: string, method: string, path: string, extra: string) => `
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: gw }
spec:
  type: rest
  description: ${name} over REST
  endpoint: { method: ${method}, url: "${restUrl}${path}", auth: { type: bearer, secretRef: { name: rest-token } } }
  inputSchema: { type: object }
${extra}`
  const policy = (level: string, requiresApproval: boolean) => `apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: ${level}, namespace: gw }
spec: { level: ${level}, requiresApproval: ${requiresApproval} }
---
`
  return `
${policy('read_only', false)}${policy('external_write', false)}${policy('local_write', false)}${policy('financial', true)}${policy('code_execution', false)}apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: rest-token, namespace: gw }
spec: { type: bearer, stringData: { token: "${secretValue}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: upstream, namespace: gw }
spec: { endpoint: "${mcpUrl}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: things.create, namespace: gw }
spec:
  type: mcp
  description: Creates a thing, once per name
  mcpServerRef: { name: upstream, tool: create_thing }
  inputSchema: { type: object, required: [name], properties: { name: { type: string } } }
  sideEffects: { level: external_write, idempotent: false, idempotencyKeyTemplate: "thing-{{ args.name }}" }
${rest(
  'tickets.create',
  'POST',
  '/tickets',
  `  inputSchema:
    type: object
    required: [subject, body]
    additionalProperties: false
    properties:
      subject: { type: string, maxLength: 200 }
      body: { type: string }
      priority: { type: string, enum: [low, normal, high, urgent] }
      customer_email: { type: string }
  sideEffects: { level: external_write, idempotent: false, idempotencyKeyTemplate: "zendesk-{{ args.subject | hash }}" }
  observability: { logArgs: true, logResult: true, redactFields: [args.body, args.customer_email, result.token] }`,
).replace('  inputSchema: { type: object }\n', '')}
${rest('flaky.read', 'GET', '/flaky-read', '  sideEffects: { level: read_only }')}
${rest('flaky.write', 'POST', '/flaky-write', '  sideEffects: { level: external_write, idempotent: false }')}
${rest('flaky.put', 'PUT', '/flaky-put', '  sideEffects: { level: external_write, idempotent: true }')}
${rest('broken.lookup', 'GET', '/broken', '  sideEffects: { level: read_only }')}
${rest('pay.charge', 'POST', '/charge', '  sideEffects: { level: financial }')}
${rest('limited.ping', 'GET', '/ping', '  sideEffects: { level: read_only }\n  safety: { rateLimit: { callsPerMinute: 3 } }')}
${rest('quiet.ping', 'GET', '/quiet', '  sideEffects: { level: read_only }\n  observability: { logArgs: false, logResult: false }')}
${rest('secret.only_b', 'GET', '/only-b', '  sideEffects: { level: read_only }\n  safety: { allowedAgents: [agent-b] }')}
${rest('denied.here', 'GET', '/denied', '  sideEffects: { level: read_only }\n  safety: { deniedNamespaces: [gw] }')}
${rest('toggled.off', 'GET', '/off', '  sideEffects: { level: read_only }')}
${rest('slow.read', 'GET', '/slow', '  sideEffects: { level: read_only }')}
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: shell.echo, namespace: gw }
spec:
  type: os
  description: Echoes its argument with /bin/echo
  command: { argv: ["/bin/echo", "{{args.text}}"], timeoutSeconds: 5, maxOutputBytes: 1000 }
  inputSchema: { type: object, required: [text], properties: { text: { type: string } } }
  sideEffects: { level: code_execution }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: shell.sleep, namespace: gw }
spec:
  type: os
  description: Sleeps
  command: { argv: ["/bin/sleep", "{{args.seconds}}"], timeoutSeconds: 1 }
  inputSchema: { type: object, properties: { seconds: { type: string } } }
  sideEffects: { level: code_execution }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: local.summarize, namespace: gw }
spec:
  type: function
  description: Summarises text inside the agent's own code
  inputSchema: { type: object, properties: { text: { type: string } } }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-a, namespace: gw }
spec:
  languageTools: [upstream]
  grants: [things.create, tickets.create, flaky.read, flaky.write, flaky.put, broken.lookup, pay.charge, limited.ping, quiet.ping, secret.only_b, denied.here, toggled.off, shell.echo, shell.sleep, slow.read, local.summarize]
  toggles: { toggled.off: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: agent-b, namespace: gw }
spec:
  languageTools: [upstream]
  grants: [secret.only_b, slow.read]
  rateLimit: { callsPerMinute: 4 }
`
}

/**
 * Makes `calls` and answers what they answered, once all of them were counted in one rate window of
 * `length`, whenever the test runs. The gateway counts rate limits in fixed windows on the clock's
 * minutes and days (lib/gateway/rate-limit.ts), reading the clock once per call, after the call was
 * sent and before its answer; the clock is this machine's, which the test and every gateway it
 * started read alike. So calls made between two readings of the test's in one window were all
 * counted in that window. Calls that straddled a window's end were counted in two (and more of them
 * passed than the limit): the counts of the windows they opened are forgotten and they are made
 * again, now at a window's start with a whole window ahead of them (`forgetCounts: false` keeps the
 * counts, for calls that compare two answers in whatever state they find). What `calls` answers is
 * measured within it (counts before and after it), as a straddling run's calls stay recorded;
 * `calls` asserts nothing, so that a straddling run is made again rather than failed.
 */
export async function inOneRateWindow<T>(length: 'minute' | 'day', calls: () => Promise<T>, { forgetCounts = true } = {}): Promise<T> {
  const { prisma } = await import('@/lib/db')
  const { rateWindows } = await import('@/lib/gateway/rate-limit')
  const none = { callsPerMinute: null, callsPerDay: null }
  const limit = { callsPerMinute: length === 'minute' ? 1 : null, callsPerDay: length === 'day' ? 1 : null }
  const windowAt = (now: number) => rateWindows('tool', limit, 'agent', none, now)[0].start
  for (let run = 1; ; run++) {
    const first = windowAt(Date.now())
    const answer = await calls()
    const last = windowAt(Date.now())
    if (first.getTime() === last.getTime()) return answer
    if (run === 2) throw new Error(`two runs of the calls in a row straddled a ${length}'s end: the second took over a ${length} (${last.toISOString()})`)
    if (forgetCounts) await prisma.gatewayRateCounter.deleteMany({ where: { windowStart: { gt: first } } })
  }
}

/** Applies the gateway manifest, stores the upstream's tool surface as discovery would, and issues one credential per agent. */
export async function setUpGatewayRegistry(
  mcpUrl: string,
  restUrl: string,
  secretValue: string,
): Promise<{ tokenA: string; tokenB: string; agentA: string; agentB: string }> {
  const { prisma } = await import('@/lib/db')
  const { agentCredentialRoutes } = await import('@/lib/api/agent-credential-routes')
  const { applyManifest, call, storeDiscoveredTools } = await import('../integration/helpers')
  await prisma.$executeRawUnsafe(
    'TRUNCATE "Tool", "LanguageTool", "Connector", "Unit", "Agent", "Secret", "SideEffectPolicy", "Policy", "ToolCall", "AgentCredential", "GatewayRateCounter", "GatewayIdempotency"',
  )
  await applyManifest(gatewayManifest(mcpUrl, restUrl, secretValue))
  await storeDiscoveredTools('gw', 'upstream', UPSTREAM_TOOL_SCHEMAS)
  const issue = async (name: string) => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name } } })
    const res = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${agent.id}/credentials`, {
      method: 'POST',
      body: { name: 'test' },
      params: { id: agent.id },
    })
    if (res.status !== 201) throw new Error(`credential: ${res.text}`)
    return { token: res.json.token as string, id: agent.id }
  }
  const a = await issue('agent-a')
  const b = await issue('agent-b')
  return { tokenA: a.token, tokenB: b.token, agentA: a.id, agentB: b.id }
}

/**
 * The world most gateway tests share: both upstreams, the registry with its credentials, and a
 * gateway server in this process on a free port.
 */
export async function startGatewayWorld(secretValue: string) {
  const mcp = await startUpstreamMcp()
  const rest = await startRestUpstream()
  const tokens = await setUpGatewayRegistry(mcp.url, rest.url, secretValue)
  const gateway = await listenOn(createGatewayServer({ port: 0 }))
  return {
    mcp,
    rest,
    tokens,
    gatewayUrl: gateway.url,
    async stop() {
      await closeMcpSessions()
      await gateway.close()
      await mcp.close()
      await rest.close()
    },
  }
}

/** An SDK v2 client speaking MCP 2026-07-28 to a gateway as an agent (pinned: no fallback to 2025-11-25). */
export async function modernAgentClient(gatewayUrl: string, token: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'test-agent-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
  const transport = new ModernStreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  await client.connect(transport)
  return client
}
