// Metrics and traces of real processes: a gateway process and a worker process (the production
// entries) export spans to a local OTLP/HTTP receiver (a plain HTTP server here that decodes the JSON
// the exporter sends) and serve Prometheus metrics on their own ports, while an agent calls a REST
// tool on a real upstream that records the trace context it receives, and an approved call runs in
// the worker. Nothing of OpenTelemetry or prom-client is mocked.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import { prisma } from '@/lib/db'
import { getBoss } from '@/lib/jobs/boss'
import { executeApprovedCallJob } from '@/lib/jobs/job-contracts'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { inOneRateWindow, setUpGatewayRegistry } from '../support/gateway-fixtures'
import { type Listening, listen } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { until } from '../support/until'
import { call } from './helpers'
import { stopChild } from '@/scripts/stop-child.mjs'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  links?: Array<{ traceId: string; spanId: string }>
  attributes?: Array<{ key: string; value: Record<string, unknown> }>
  service: string
}

const spans: OtlpSpan[] = []
interface OtlpLogRecord {
  eventName?: string
  body?: { stringValue?: string }
  severityText?: string
  attributes?: Array<{ key: string; value: { stringValue?: string } }>
  service: string
}
const logRecords: OtlpLogRecord[] = []
const upstreamSaw: Array<{ path: string; traceparent: string | undefined }> = []
let receiver: Listening
let upstream: Listening
let mcpUpstream: Listening
const mcpSaw: Array<{ method: string; traceparent: string | undefined }> = []
let gateway: Spawned
let worker: Spawned
let tokenA: string
const METRICS_TOKEN = `metrics-${randomBytes(8).toString('hex')}`

interface Spawned {
  child: ChildProcess
  output: () => string
  metricsPort: number
  url?: string
  stop(): Promise<void>
}

/** Starts a production entry (from its sources) and waits for its ready line, which names its metrics port. */
async function start(entry: string, ready: RegExp, env: Record<string, string>): Promise<Spawned> {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, entry], { env: { ...process.env, LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${out}`)), 40_000)
    const check = () => {
      for (const text of out.split('\n')) {
        if (!ready.test(text)) continue
        clearTimeout(timer)
        return resolve(JSON.parse(text))
      }
    }
    child.stdout!.on('data', check)
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${out}`)))
  })
  const msg = String(line.msg)
  return {
    child,
    output: () => out,
    metricsPort: Number(line.metricsPort),
    url: /listening on (http:\/\/[^/\s]+)\/mcp/.exec(msg)?.[1],
    stop: () => stopChild(child),
  }
}

const TRACING_ENV = (endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '100',
  OTEL_SERVICE_NAME: 'toolroom-test',
  TOOLROOM_CALL_EXPORT: 'otlp',
  OTEL_BLRP_SCHEDULE_DELAY: '100',
})

const metrics = async (port: number, token: string | null = METRICS_TOKEN) => {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  return { status: res.status, text: await res.text() }
}

/** The value of one series, by its labels (a subset), or null. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    const body = line.slice(name.length + 1, line.lastIndexOf('}'))
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return null
}

async function mcpCall(name: string, args: Record<string, unknown>, traceparent?: string) {
  const res = await fetch(`${gateway.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenA}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(traceparent ? { traceparent } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  })
  return (await res.json()) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: { code: number } }
}

beforeAll(async () => {
  receiver = await listen(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    if (req.url === '/v1/traces' && /json/.test(String(req.headers['content-type']))) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'toolroom.role')?.value?.stringValue
        for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ ...s, service })
      }
    }
    if (req.url === '/v1/logs' && /json/.test(String(req.headers['content-type']))) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      for (const rl of body.resourceLogs ?? []) {
        const service = rl.resource?.attributes?.find((a: { key: string }) => a.key === 'toolroom.role')?.value?.stringValue
        for (const sl of rl.scopeLogs ?? []) for (const r of sl.logRecords ?? []) logRecords.push({ ...r, service })
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  upstream = await listen((req, res) => {
    upstreamSaw.push({ path: (req.url ?? '').split('?')[0], traceparent: req.headers.traceparent as string | undefined })
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
  })
  // An MCP server that notes the trace context of every JSON-RPC request it receives.
  mcpUpstream = await listen(async (req, res) => {
    if ((req.url ?? '').startsWith('/health')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    const traceparent = req.headers.traceparent as string | undefined
    const build = () => {
      const server = new McpServer({ name: 'traced', version: '1.0.0' })
      server.registerTool('create_thing', { description: 'Creates a thing', inputSchema: { name: z.string() } }, async ({ name }) => ({
        content: [{ type: 'text', text: `created ${name}` }],
      }))
      return server
    }
    req.on('data', (chunk: Buffer) => {
      const method = /"method"\s*:\s*"([^"]+)"/.exec(chunk.toString('utf8'))?.[1]
      if (method) mcpSaw.push({ method, traceparent })
    })
    await answerStatelessMcp(build, req, res)
  })
  const tokens = await setUpGatewayRegistry(mcpUpstream.url, upstream.url, 'sk-observability-secret-0001')
  tokenA = tokens.tokenA
  await prisma.$executeRawUnsafe('TRUNCATE "ApprovalRequest"')
  // Jobs an earlier file left unfinished in the shared database (approved without a worker running,
  // waiting for a retry, or held by a worker it killed) would run in this file's worker and be counted
  // with this file's one approved call.
  await getBoss()
  await prisma.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`, executeApprovedCallJob.name)
  const common = { ...TRACING_ENV(receiver.url), TOOLROOM_METRICS_PORT: '0', TOOLROOM_METRICS_TOKEN: METRICS_TOKEN }
  ;[gateway, worker] = await Promise.all([
    start('scripts/gateway.ts', /listening on/, { ...common, GATEWAY_PORT: '0', HOST: '127.0.0.1' }),
    start('workers/main.ts', /"msg":"ready: /, { ...common, TOOLROOM_WORKER_JOBS: 'approvals.execute', TOOLROOM_WORKER_POLL_SECONDS: '0.2' }),
  ])
}, 90_000)

afterAll(async () => {
  await Promise.all([gateway?.stop(), worker?.stop()])
  await receiver?.close()
  await upstream?.close()
  await mcpUpstream?.close()
})

describe('traces', () => {
  const traceId = randomBytes(16).toString('hex')
  const agentSpanId = randomBytes(8).toString('hex')

  it('a gateway call continues the agent’s trace: a span per pipeline step and per upstream attempt, whose traceparent the upstream receives, and database spans', async () => {
    const answer = await mcpCall('flaky.read', {}, `00-${traceId}-${agentSpanId}-01`)
    expect(answer.result?.isError).toBeFalsy()
    const inTrace = () => spans.filter((s) => s.traceId === traceId)
    const upstreamSpan = await until('the upstream attempt span', () => inTrace().find((s) => s.name === 'toolroom.gateway.upstream'))
    await until('the record span', () => inTrace().find((s) => s.name === 'toolroom.gateway.record'))

    const byName = (name: string) => inTrace().find((s) => s.name === name)!
    const request = byName('POST /mcp')
    expect(request.parentSpanId).toBe(agentSpanId)
    expect(request.kind).toBe(2) // server
    const callSpan = byName('toolroom.gateway.call')
    expect(callSpan.parentSpanId).toBe(request.spanId)
    for (const step of ['resolve', 'bind', 'validate', 'rate_limit', 'execute', 'record'])
      expect(byName(`toolroom.gateway.${step}`)?.parentSpanId, step).toBe(callSpan.spanId)
    expect(upstreamSpan.parentSpanId).toBe(byName('toolroom.gateway.execute').spanId)
    expect(upstreamSpan.kind).toBe(3) // client

    // The upstream was called in the upstream attempt's span.
    const seen = upstreamSaw.find((u) => u.path === '/flaky-read')
    expect(seen?.traceparent).toBe(`00-${traceId}-${upstreamSpan.spanId}-01`)
    // Prisma's queries (the agent's credential, its tools) are spans of the same trace.
    expect(inTrace().some((s) => s.name.startsWith('prisma:'))).toBe(true)
    expect(inTrace().every((s) => s.service === 'gateway')).toBe(true)
  })

  it('a call of an MCP tool carries the upstream attempt’s traceparent to the MCP server, session set-up included', async () => {
    const mcpTrace = randomBytes(16).toString('hex')
    const answer = await mcpCall('things.create', { name: 'traced' }, `00-${mcpTrace}-${randomBytes(8).toString('hex')}-01`)
    expect(answer.result?.isError).toBeFalsy()
    const attempt = await until('the MCP upstream attempt span', () => spans.find((s) => s.traceId === mcpTrace && s.name === 'toolroom.gateway.upstream'))
    const call = mcpSaw.find((m) => m.method === 'tools/call')
    expect(call?.traceparent).toBe(`00-${mcpTrace}-${attempt.spanId}-01`)
    expect(mcpSaw.find((m) => m.method === 'initialize')?.traceparent?.split('-')[1]).toBe(mcpTrace)
  })

  it('an approved call runs in a worker under a span that links back to the call that asked for approval', async () => {
    const askTrace = randomBytes(16).toString('hex')
    const answer = await mcpCall('pay.charge', { amount: 5 }, `00-${askTrace}-${randomBytes(8).toString('hex')}-01`)
    const callId = answer.result?.structuredContent?.callId as string
    expect(answer.result?.structuredContent?.status).toBe('approval_required')
    const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId } })
    expect(approval.traceparent).toMatch(new RegExp(`^00-${askTrace}-[0-9a-f]{16}-01$`))

    const decided = await call(approveApi.POST, `/api/v1/approvals/${approval.id}/approve`, { method: 'POST', params: { id: approval.id }, body: {} })
    expect(decided.status).toBe(200)
    const execution = await until('the execution span', () => spans.find((s) => s.name === 'toolroom.approvals.execute' && s.service === 'worker'))
    expect(execution.links?.[0]).toMatchObject({ traceId: askTrace, spanId: approval.traceparent!.split('-')[2] })
    // The job's own span is its parent; the upstream charge carries the execution's trace.
    const job = await until('the job span', () => spans.find((s) => s.spanId === execution.parentSpanId))
    expect(job.name).toBe('job approvals.execute')
    expect(job.kind).toBe(5) // consumer
    const charge = await until('the charge upstream call', () => upstreamSaw.find((u) => u.path === '/charge'))
    expect(charge.traceparent?.split('-')[1]).toBe(execution.traceId)
  })
})

describe('metrics', () => {
  it('are served on the metrics port only, with its token: 401 without or with another, 405 for other methods, 404 elsewhere', async () => {
    expect((await metrics(gateway.metricsPort, null)).status).toBe(401)
    expect((await metrics(gateway.metricsPort, 'not-the-token')).status).toBe(401)
    expect((await metrics(gateway.metricsPort)).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${gateway.metricsPort}/metrics`, { method: 'POST' })).status).toBe(405)
    expect((await fetch(`http://127.0.0.1:${gateway.metricsPort}/metrics/../api`)).status).toBe(404)
    // The public port does not serve them.
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404)
  })

  it('the gateway counts calls by tool, agent namespace and outcome, times them (its own share apart), and counts rate-limit refusals', async () => {
    // The series this test's calls move, as counted before and after them.
    const counted = (text: string) => ({
      succeeded: sample(text, 'toolroom_gateway_calls_total', { tool: 'limited.ping', outcome: 'succeeded' }) ?? 0,
      rateLimited: sample(text, 'toolroom_gateway_calls_total', { tool: 'limited.ping', outcome: 'rate_limited' }) ?? 0,
      refusals: sample(text, 'toolroom_gateway_rate_limited_total', { applies_to: 'tool', window: 'minute' }) ?? 0,
    })
    const moved = await inOneRateWindow('minute', async () => {
      const before = counted((await metrics(gateway.metricsPort)).text)
      for (let i = 0; i < 4; i++) await mcpCall('limited.ping', {})
      const after = counted((await metrics(gateway.metricsPort)).text)
      return { succeeded: after.succeeded - before.succeeded, rateLimited: after.rateLimited - before.rateLimited, refusals: after.refusals - before.refusals }
    })
    expect(moved).toEqual({ succeeded: 3, rateLimited: 1, refusals: 1 })
    const { text } = await metrics(gateway.metricsPort)
    expect(
      sample(text, 'toolroom_gateway_calls_total', { tool: 'flaky.read', agent_namespace: 'gw', outcome: 'succeeded', channel: 'mcp', role: 'gateway' }),
    ).toBe(1)
    expect(sample(text, 'toolroom_gateway_upstream_duration_seconds_count', { executor: 'rest', result: 'ok' })).toBeGreaterThanOrEqual(4)
    expect(sample(text, 'toolroom_gateway_overhead_duration_seconds_count', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(4)
    expect(sample(text, 'toolroom_db_pool_connections', { pool: 'call_records', state: 'max' })).toBeGreaterThan(0)
    expect(text).toMatch(/^process_cpu_seconds_total\{role="gateway"\} /m)
  })

  it('a caller cannot grow the series: every unknown tool name is counted as "(unknown)"', async () => {
    for (let i = 0; i < 3; i++) await mcpCall(`made-up-${randomBytes(6).toString('hex')}`, {})
    const { text } = await metrics(gateway.metricsPort)
    expect(text).not.toContain('made-up-')
    expect(sample(text, 'toolroom_gateway_calls_total', { tool: '(unknown)', outcome: 'denied' })).toBe(3)
  })

  it('workers report jobs by outcome, the approval queue and queue depths; every process answers its probes', async () => {
    const { text } = await until('the job counted', async () => {
      const m = await metrics(worker.metricsPort)
      return sample(m.text, 'toolroom_jobs_total', { job: 'approvals.execute', result: 'completed' }) !== null && m
    })
    // This file's approved call, and no other: the queue held no job of an earlier file when the worker started.
    expect(sample(text, 'toolroom_jobs_total', { job: 'approvals.execute', result: 'completed' })).toBe(1)
    expect(sample(text, 'toolroom_jobs_total', { job: 'approvals.execute', result: 'failed' }) ?? 0).toBe(0)
    expect(sample(text, 'toolroom_approvals_pending', {})).toBe(0)
    expect(sample(text, 'toolroom_job_queue_depth', { job: 'approvals.execute' })).toBe(0)
    for (const port of [gateway.metricsPort, worker.metricsPort]) {
      expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200)
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200)
    }
  })

  it('logs are JSON lines with level, time and role (stdout and stderr alike)', () => {
    const lines = worker.output().split('\n').filter(Boolean)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      const entry = JSON.parse(line)
      expect(entry).toMatchObject({ role: 'worker', level: expect.any(String), time: expect.any(String), msg: expect.any(String) })
    }
  })
})

describe('call logs', () => {
  const attribute = (r: OtlpLogRecord, key: string) => r.attributes?.find((a) => a.key === key)?.value.stringValue
  const recordOf = (callId: string, eventName: string) => logRecords.find((r) => r.eventName === eventName && attribute(r, 'toolroom.call.id') === callId)

  it('each recorded call leaves as an OpenTelemetry log record, as redacted as its stored row', async () => {
    const answer = await mcpCall('tickets.create', { subject: 'exported', body: 'the customer’s card is 4242', customer_email: 'jane@example.com' })
    expect(answer.result?.isError).toBeFalsy()
    const row = await until('the call recorded', () =>
      prisma.toolCall.findFirst({ where: { toolId: 'tickets.create', agentName: 'agent-a', outcome: 'succeeded' }, orderBy: { startedAt: 'desc' } }),
    )
    const record = await until('the call’s log record', () => recordOf(row.id, 'toolroom.call'))
    expect(record.service).toBe('gateway')
    expect(record.severityText).toBe('INFO')
    expect(attribute(record, 'toolroom.tool.id')).toBe('tickets.create')
    expect(attribute(record, 'toolroom.call.outcome')).toBe('succeeded')
    const sent = JSON.parse(record.body!.stringValue!) as Record<string, unknown>
    // The stored row's arguments, masked where the tool says: what was never written is never sent.
    expect(sent.args).toEqual(row.args)
    expect(JSON.stringify(sent)).not.toContain('4242')
    expect(JSON.stringify(sent)).not.toContain('jane@example.com')
    expect(sent).toMatchObject({ id: row.id, agentNamespace: 'gw', outcome: 'succeeded', channel: 'mcp' })
  })

  it('a call closed after its approval is sent again by the worker that ran it, with its outcome', async () => {
    const approved = await until('the approved call ran', () =>
      prisma.toolCall.findFirst({ where: { toolId: 'pay.charge', outcome: 'succeeded' }, orderBy: { startedAt: 'desc' } }),
    )
    expect(recordOf(approved.id, 'toolroom.call')?.service).toBe('gateway')
    const closed = await until('the closing record', () => recordOf(approved.id, 'toolroom.call.closed'))
    expect(closed.service).toBe('worker')
    expect(JSON.parse(closed.body!.stringValue!)).toMatchObject({ id: approved.id, outcome: 'succeeded' })
  })
})
