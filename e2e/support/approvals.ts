// Real parts for the approval queue's end-to-end test: an upstream MCP server (the official SDK)
// that counts what it executes, a `financial` Tool on it with an agent and the agent's gateway
// credential (registered through the API, as an admin would), the agent's SDK client at the e2e
// server's /mcp, and a worker process that runs approved calls and nothing else.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { type APIRequestContext, expect } from '@playwright/test'
import pg from 'pg'
import { z } from 'zod'
import { listen } from '../../tests/support/listen'
import { answerStatelessMcp } from '../../tests/support/stateless-mcp'
import { stopChild } from '../../scripts/stop-child.mjs'
import { builtEntry } from './built'

export interface PaymentsUpstream {
  url: string
  /** Payments the upstream made, by invoice: the only place a call can be seen to have run. */
  paid: Map<string, number>
  close(): Promise<void>
}

/** An MCP server with one side effect, `pay_invoice`, answering over streamable HTTP (stateless). */
export async function startPaymentsUpstream(): Promise<PaymentsUpstream> {
  const paid = new Map<string, number>()
  const build = () => {
    const server = new McpServer({ name: 'e2e-payments', version: '1.0.0' })
    server.registerTool(
      'pay_invoice',
      {
        description: 'Pays an invoice (moves money; not idempotent)',
        inputSchema: { invoice: z.string(), amount: z.number() },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
      async ({ invoice, amount }) => {
        const n = (paid.get(invoice) ?? 0) + 1
        paid.set(invoice, n)
        return { content: [{ type: 'text', text: `paid ${invoice}: ${amount}` }], structuredContent: { paid: invoice, amount, payment: n } }
      },
    )
    return server
  }
  const server = await listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(build, req, res)
  })
  return { ...server, paid }
}

export interface ApprovalWorld {
  namespace: string
  /** The Tool's id as agents call it and the queue filters by it. */
  toolId: string
  agentName: string
  /** The agent's gateway credential (tra_…). */
  token: string
}

/**
 * Registers, through the API with an admin's session: a LanguageTool for the upstream, a `financial`
 * Tool on its `pay_invoice` (the seeded SideEffectPolicy makes every call wait for an approver), an
 * agent granted it, and the agent's credential. The tool's own rate limit lifts the financial level's
 * 5 calls a minute, which this spec's calls would otherwise run into.
 */
export async function registerApprovalWorld(admin: APIRequestContext, upstreamUrl: string, suffix: string): Promise<ApprovalWorld> {
  const namespace = `e2e-approvals-${suffix}`
  const toolId = `finance_${suffix.replaceAll('-', '_')}.pay_invoice`
  const agentName = `e2e-payer-${suffix}`
  const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: payments, namespace: ${namespace} }
spec: { endpoint: "${upstreamUrl}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${toolId}, namespace: ${namespace} }
spec:
  type: mcp
  description: Pays a supplier invoice.
  mcpServerRef: { name: payments, tool: pay_invoice }
  inputSchema:
    type: object
    required: [invoice, amount]
    properties: { invoice: { type: string }, amount: { type: number } }
  sideEffects: { level: financial, idempotent: false }
  safety: { rateLimit: { callsPerMinute: 1000, callsPerDay: 100000 } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${agentName}, namespace: ${namespace} }
spec: { grants: [${toolId}] }
`
  const applied = await admin.post('/api/v1/apply', { headers: { 'content-type': 'application/yaml' }, data: manifest })
  expect(applied.status(), await applied.text()).toBe(200)
  const agent = await admin.get(`/api/v1/agents/${agentName}?namespace=${namespace}`)
  expect(agent.status()).toBe(200)
  const { id } = await agent.json()
  const credential = await admin.post(`/api/v1/agents/${id}/credentials`, { data: { name: 'e2e approvals' } })
  expect(credential.status(), await credential.text()).toBe(201)
  return { namespace, toolId, agentName, token: (await credential.json()).token }
}

/** The agent: the SDK's client over streamable HTTP, with its bearer credential. */
export async function agentClient(baseURL: string, token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-payer', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseURL), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

export interface Worker {
  stop(): Promise<void>
  /**
   * Resolves once no approved call is waiting for the worker or running in it. A decision enqueues
   * its execution before it answers, so after this, nothing more of what was decided can still run:
   * the checks that nothing ran twice (or at all) look at a finished state, not at a pause.
   */
  drained(): Promise<void>
}

const WORKER_LOG = path.resolve('.data/test-reports/e2e-approvals-worker.log')

/**
 * The worker (`workers/main.ts`, compiled as production runs it) on the e2e database and secret key
 * (both come from `npm test`), taking only approved calls: discovery, rollups and webhooks stay out of
 * the other specs' way.
 */
export async function startApprovalsWorker(): Promise<Worker> {
  for (const name of ['DATABASE_URL', 'TOOLROOM_SECRET_KEY'])
    if (!process.env[name]) throw new Error(`${name} is not set: run the end-to-end tests with \`npm test e2e\``)
  const log = fs.openSync(WORKER_LOG, 'w')
  const child: ChildProcess = spawn(process.execPath, [builtEntry('worker')], {
    env: { ...process.env, TOOLROOM_WORKER_JOBS: 'approvals.execute', TOOLROOM_WORKER_POLL_SECONDS: '0.5', TOOLROOM_WORKER_CONCURRENCY: '4' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const collect = (d: Buffer) => {
    output += d
    fs.writeSync(log, d)
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  child.once('close', () => fs.closeSync(log))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start within 30 s:\n${output}`)), 30_000)
    const onData = () => {
      if (!/(\[worker\] |"msg":")ready: approvals\.execute /.test(output)) return
      clearTimeout(timer)
      child.stdout!.off('data', onData)
      resolve()
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the worker exited with ${code} before it was ready:\n${output}`))
    })
  })
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  return {
    stop: async () => {
      await db.end()
      await stopChild(child)
    },
    drained: () =>
      expect
        .poll(
          async () =>
            (
              await db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'approvals.execute' AND state IN ('created', 'retry', 'active')",
              )
            ).rows[0].n,
          { message: 'the approved calls in the queue to have run', timeout: 30_000, intervals: [100] },
        )
        .toBe(0),
  }
}
