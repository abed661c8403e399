// Discovery end to end: real worker processes on the real queue, a real SDK MCP server and a real
// /a2a/tools listener, a real database. Covers creation, rotation, pinning, a killed worker and two
// workers sharing the queue.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { applyManifest, call, resetDatabase, yaml } from './helpers'
import { until } from '../support/until'
import { startWorkerProcess } from '../support/worker-process'

// Short queue timings so a dead worker's job comes back within the test.
process.env.TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS = '4'
process.env.TOOLROOM_QUEUE_MAINTENANCE_SECONDS = '1'
process.env.TOOLROOM_DISCOVERY_READINESS_SECONDS = '3'
reloadConfig()

const digest = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`
let mcpTools: Array<{ name: string; description: string; inputSchema: object; annotations?: object }> = []
const images = new Map<string, { tools: object[]; delayMs: number }>()
const servers: http.Server[] = []
const workers = new Set<ChildProcess>()
let mcpUrl = ''
let agentBase = ''

function mcpServer() {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  return http.createServer(async (req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    const id = req.headers['mcp-session-id'] as string | undefined
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      const server = new Server({ name: 'test-mcp', version: '1' }, { capabilities: { tools: {} } })
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools }))
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }))
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid: string): void => void sessions.set(sid, created),
      })
      await server.connect(created)
      transport = created
    }
    await transport!.handleRequest(req, res)
  })
}

function agentListener() {
  return http.createServer((req, res) => {
    const m = /^\/agents\/([a-z0-9-]+)(\/.*)$/.exec(req.url ?? '')
    const image = m && images.get(m[1])
    if (!image) return void res.writeHead(404).end()
    if (m[2] === '/.well-known/agent.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: m[1] }))
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(image.tools)), image.delayMs)
  })
}

async function listen(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A worker, once it has taken its queues: a test's waits then measure discovery, not the worker's start. */
async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess({ TOOLROOM_WORKER_POLL_SECONDS: '0.5', TOOLROOM_WORKER_CONCURRENCY: '4' })
  workers.add(child)
  child.once('exit', () => workers.delete(child))
  return child
}

const runsOf = (subjectId: string) => prisma.discoveryRun.findMany({ where: { subjectId }, orderBy: { startedAt: 'asc' } })
const agentDoc = (name: string, n: number) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: disco }
spec:
  image: "registry.local/${name}@${digest(n)}"
  endpoint: "${agentBase}/agents/${name}"
`
const tool = (name: string, description = `${name} does things`) => ({ name, description, inputSchema: { type: 'object', properties: {} } })

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "DiscoveryRun", "SurfaceChange"')
  mcpUrl = `${await listen(mcpServer())}/mcp`
  agentBase = await listen(agentListener())
  await startWorker()
})

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL')
  for (const s of servers) s.close()
  const { stopBoss } = await import('@/lib/jobs/boss')
  await stopBoss()
})

describe('discovery workers', () => {
  it('discover a new MCP server and a new agent’s image, in declaration order', async () => {
    mcpTools = [
      {
        name: 'create-issue',
        description: 'Open an issue',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      },
      { name: 'listRepos', description: 'List repositories', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ]
    images.set('scout', { tools: [tool('acme.timestamp'), tool('acme.echo'), tool('Bad.Name'), tool('toolroom.sneaky')], delayMs: 0 })
    await applyManifest(
      `${agentDoc('scout', 1)}---\napiVersion: toolroom.dev/v1alpha1\nkind: LanguageTool\nmetadata: { name: gh, namespace: disco }\nspec: { endpoint: "${mcpUrl}" }\n`,
    )

    const server = await until('MCP discovery', async () => {
      const s = await prisma.languageTool.findFirst({ where: { name: 'gh' } })
      return s?.phase === 'Ready' && s
    })
    expect((server.toolSchemas as { name: string }[]).map((t) => t.name)).toEqual(['create-issue', 'listRepos'])
    expect((server.toolSchemas as { annotations?: object }[])[1].annotations).toEqual({ readOnlyHint: true })
    expect(server.health).toBe('ok')
    expect(server.detectedTransport).toBe('streamable-http')
    // This fixture answers any tools/call with success, even for a tool it does not have: not compliant.
    expect(server.compliance).toMatchObject({
      status: 'fail',
      checkedAt: expect.any(String),
      items: expect.arrayContaining([expect.objectContaining({ id: 'health', status: 'pass' }), expect.objectContaining({ id: 'tools-call', status: 'fail' })]),
    })

    const agent = await until('image discovery', async () => {
      const a = await prisma.agent.findFirst({ where: { name: 'scout' } })
      return a?.imageToolsSource === 'introspection' && a
    })
    expect((agent.imageTools as { name: string }[]).map((t) => t.name)).toEqual(['acme.timestamp', 'acme.echo'])
    expect(agent.imageDigest).toBe(digest(1))
    const [run] = await runsOf(agent.id)
    expect(run).toMatchObject({ trigger: 'created', status: 'succeeded', toolCount: 2 })
    const refused = (run.details as { refused: { field: string; rule: string }[] }).refused
    expect(refused.map((r) => r.rule).sort()).toEqual(['canonical-id', 'reserved-namespace'])
  })

  it('re-introspects on digest rotation and records the change with a diff', async () => {
    images.set('scout', { tools: [tool('acme.echo', 'Echo, now louder'), tool('acme.reverse')], delayMs: 0 })
    await applyManifest(agentDoc('scout', 2))
    const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'scout' } })
    const rotation = await until('the rotation run', () =>
      prisma.discoveryRun.findFirst({ where: { subjectId: agent.id, trigger: 'rotation', status: 'succeeded' } }),
    )
    const change = await prisma.surfaceChange.findFirstOrThrow({ where: { runId: rotation.id } })
    const diff = change.diff as { added: { name: string }[]; removed: { name: string }[]; changed: { name: string; fields: string[] }[] }
    expect(diff.added.map((t) => t.name)).toEqual(['acme.reverse'])
    expect(diff.removed.map((t) => t.name)).toEqual(['acme.timestamp'])
    expect(diff.changed).toEqual([expect.objectContaining({ name: 'acme.echo', fields: ['description'] })])
    const runs = await runsOf(agent.id)
    expect(runs.map((r) => r.trigger)).toEqual(['created', 'rotation'])
    expect((await prisma.agent.findFirstOrThrow({ where: { name: 'scout' } })).imageDigest).toBe(digest(2))
  })

  it('keeps the previous cache when a run fails, and records why', async () => {
    images.delete('scout') // the listener now answers 404
    const { discoveryRoutes } = await import('@/lib/api/discovery-routes')
    const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'scout' } })
    const res = await call(discoveryRoutes.refreshAgent, `/api/v1/agents/${agent.id}/refresh`, { method: 'POST', params: { id: agent.id } })
    expect(res.status).toBe(202)
    const failed = await until('a failed run', () => prisma.discoveryRun.findFirst({ where: { subjectId: agent.id, status: 'failed', trigger: 'manual' } }), {
      timeoutMs: 30_000,
    })
    expect(failed.error).toBeTruthy()
    expect(((await prisma.agent.findFirstOrThrow({ where: { id: agent.id } })).imageTools as object[]).length).toBe(2)
  }, 90_000)

  it('holds a changed definition for review when the server is pinned, until it is accepted', async () => {
    await applyManifest(
      `apiVersion: toolroom.dev/v1alpha1\nkind: LanguageTool\nmetadata: { name: gh, namespace: disco }\nspec: { endpoint: "${mcpUrl}", pinning: true }\n`,
    )
    const server = await prisma.languageTool.findFirstOrThrow({ where: { name: 'gh' } })
    mcpTools = [
      { ...mcpTools[0], description: 'Open an issue (and assign it to everyone)' },
      mcpTools[1],
      { name: 'delete-repo', description: 'Delete a repository', inputSchema: { type: 'object' } },
    ]
    const { discoveryRoutes } = await import('@/lib/api/discovery-routes')
    await call(discoveryRoutes.refreshLanguageTool, `/api/v1/languagetools/${server.id}/refresh`, { method: 'POST', params: { id: server.id } })
    const held = await until('a held change', () => prisma.surfaceChange.findFirst({ where: { subjectId: server.id, status: 'pending_review' } }))
    const kept = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    const byName = new Map((kept.toolSchemas as { name: string; description: string }[]).map((t) => [t.name, t]))
    expect(byName.get('create-issue')!.description).toBe('Open an issue') // agents keep the accepted version
    expect(byName.has('delete-repo')).toBe(true) // additions are not held

    const accepted = await call(discoveryRoutes.accept, `/api/v1/discovery/changes/${held.id}/accept`, {
      method: 'POST',
      params: { id: held.id },
      body: { comment: 'reviewed' },
    })
    expect(accepted.status).toBe(200)
    expect(accepted.json).toMatchObject({ status: 'accepted', comment: 'reviewed' })
    const after = await prisma.languageTool.findUniqueOrThrow({ where: { id: server.id } })
    expect((after.toolSchemas as { name: string; description: string }[]).find((t) => t.name === 'create-issue')!.description).toBe(
      'Open an issue (and assign it to everyone)',
    )
    const again = await call(discoveryRoutes.reject, `/api/v1/discovery/changes/${held.id}/reject`, { method: 'POST', params: { id: held.id }, body: {} })
    expect(again.status).toBe(409)
    expect(again.json.detail).toMatch(/already accepted/)
  })

  it('loses nothing when a worker is killed in the middle of a job', async () => {
    for (const w of workers) w.kill('SIGKILL')
    images.set('slowpoke', { tools: [tool('slow.one')], delayMs: 2500 })
    const doomed = await startWorker()
    await applyManifest(agentDoc('slowpoke', 7))
    const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'slowpoke' } })
    await until('the first attempt to start', () => prisma.discoveryRun.findFirst({ where: { subjectId: agent.id, status: 'running' } }))
    doomed.kill('SIGKILL')
    images.set('slowpoke', { tools: [tool('slow.one')], delayMs: 0 })
    await startWorker()
    const done = await until('the retried job', () => prisma.discoveryRun.findFirst({ where: { subjectId: agent.id, status: 'succeeded' } }), {
      timeoutMs: 60_000,
    })
    expect(done.attempt).toBeGreaterThanOrEqual(2)
    expect(((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).imageTools as { name: string }[]).map((t) => t.name)).toEqual(['slow.one'])
  }, 90_000)

  it('runs each job once with two workers on one queue', async () => {
    await startWorker() // now two
    // Jobs queued from here on may take their time: the short expiry above is for a dead worker's job,
    // and a job that outlived it on a busy machine would be retried and run twice by design, not by a
    // defect. (Set after the second worker's start, which sets the queues' options again.)
    await prisma.$executeRawUnsafe(`UPDATE pgboss.queue SET expire_seconds = 300 WHERE name LIKE 'discovery.introspect-%'`)
    const names = Array.from({ length: 12 }, (_, i) => `pair-${i}`)
    for (const name of names) images.set(name, { tools: [tool(`pair.t${name.split('-')[1]}`)], delayMs: 100 })
    await applyManifest(names.map((n, i) => agentDoc(n, 100 + i)).join('---\n'))
    const ids = (await prisma.agent.findMany({ where: { name: { in: names } }, select: { id: true } })).map((a) => a.id)
    // The jobs the Apply queued. The periodic sweep (every 15 minutes by default) queues one more for
    // every agent when a slow run of this file crosses its minute: those are other jobs, run once too.
    const applied = { subjectId: { in: ids }, trigger: { not: 'periodic' } }
    await until('all twelve', async () => (await prisma.discoveryRun.count({ where: { ...applied, status: 'succeeded' } })) === 12, {
      timeoutMs: 60_000,
    })
    // Once no discovery job is waiting or running, nothing can still add a thirteenth run.
    await until('the discovery queue to be empty', async () => {
      const [{ n }] = await prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pgboss.job WHERE name LIKE 'discovery.introspect-%' AND state IN ('created', 'retry', 'active')`
      return n === 0
    })
    expect(await prisma.discoveryRun.count({ where: applied })).toBe(12)
  }, 90_000)
})

describe('discovery records through the API', () => {
  it('pages runs newest first without gaps or repeats, and filters changes by status', async () => {
    const { discoveryRoutes } = await import('@/lib/api/discovery-routes')
    const total = await prisma.discoveryRun.count()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: Awaited<ReturnType<typeof call>> = await call(discoveryRoutes.runs, `/api/v1/discovery/runs?limit=5${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      seen.push(...res.json.items.map((r: { id: string }) => r.id))
      cursor = res.json.nextCursor
    } while (cursor)
    expect(seen.length).toBe(total)
    expect(new Set(seen).size).toBe(total)
    const times = (await prisma.discoveryRun.findMany({ where: { id: { in: seen } } })).map((r) => [r.id, r.startedAt.getTime()] as const)
    const order = new Map(times)
    expect(seen.map((id) => order.get(id)!)).toEqual([...seen.map((id) => order.get(id)!)].sort((a, b) => b - a))
    const accepted = await call(discoveryRoutes.changes, '/api/v1/discovery/changes?status=accepted')
    expect(accepted.json.items.map((c: { status: string }) => c.status)).toEqual(['accepted'])
    const bad = await call(discoveryRoutes.runs, '/api/v1/discovery/runs?subjectKind=Pod')
    expect(bad.status).toBe(400)
  })
})
