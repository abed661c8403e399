// Approvals end to end with real parts: an agent on the official SDK client calls a financial tool
// through the gateway, an approver decides through the API, a real worker process runs the approved
// call against a real upstream exactly once, and the agent gets the result in each of its ways.
import type { ChildProcess } from 'node:child_process'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import * as denyApi from '@/app/api/v1/approvals/[id]/deny/route'
import * as undoApi from '@/app/api/v1/approvals/[id]/undo/route'
import * as approvalsApi from '@/app/api/v1/approvals/route'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { applyRoute } from '@/lib/api/registry-routes'
import { createGatewayServer } from '@/lib/gateway/server'
import { agentClient, setUpGatewayRegistry, startRestUpstream } from '../support/gateway-fixtures'
import { type Listening, listenOn } from '../support/listen'
import { until } from '../support/until'
import { startWorkerProcess } from '../support/worker-process'
import { call } from './helpers'

// Decisions take effect at once here, but where a test opens an undo window of its own.
process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
reloadConfig()

let rest: Awaited<ReturnType<typeof startRestUpstream>>
let gateway: Listening
let client: Client
let worker: ChildProcess | null = null

const startWorker = () => startWorkerProcess({ TOOLROOM_WORKER_POLL_SECONDS: '0.5', TOOLROOM_WORKER_CONCURRENCY: '2' })

async function stopWorker() {
  if (!worker || worker.exitCode !== null) return
  const exited = new Promise((r) => worker!.once('exit', r))
  worker.kill('SIGKILL')
  await exited
  worker = null
}

const charges = () => rest.hits.get('/charge') ?? 0
/** The states of the execution jobs queued for an approval (pg-boss's table: the worker's only source of calls to run). */
const executionJobs = async (approvalId: string) =>
  (
    await prisma.$queryRawUnsafe<{ state: string }[]>(
      `SELECT state::text FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1 ORDER BY created_on`,
      approvalId,
    )
  ).map((j) => j.state)
const approvalOf = (callId: string) => prisma.approvalRequest.findUniqueOrThrow({ where: { callId } })
const approve = (id: string, comment?: string) =>
  call(approveApi.POST, `/api/v1/approvals/${id}/approve`, { method: 'POST', params: { id }, body: comment ? { comment } : {} })

async function charge(amount: number, meta: Record<string, unknown> = {}) {
  const result = await client.callTool({ name: 'pay.charge', arguments: { amount }, _meta: meta })
  return result as { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> }
}

beforeAll(async () => {
  rest = await startRestUpstream()
  // The MCP upstream is not needed here; a closed port stands in for its URL.
  const tokens = await setUpGatewayRegistry('http://127.0.0.1:9', rest.url, 'sk-approvals-test-secret-0001')
  await prisma.$executeRawUnsafe('TRUNCATE "ApprovalRequest"')
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  client = await agentClient(gateway.url, tokens.tokenA)
  worker = await startWorker()
})

afterAll(async () => {
  await stopWorker()
  await client?.close()
  await closeMcpSessions()
  await gateway?.close()
  await rest?.close()
})

describe('an approved call', () => {
  it('waits in the queue, runs once after approval, and the agent gets its result from approval_status and from a repeat', async () => {
    const before = charges()
    const first = await charge(42, { idempotencyKey: 'charge-42' })
    expect(first.structuredContent).toMatchObject({ status: 'approval_required', approvalStatus: 'pending', tool: 'pay.charge' })
    const callId = first.structuredContent!.callId as string
    expect(charges()).toBe(before)

    const queue = await call(approvalsApi.GET, '/api/v1/approvals?status=pending&tool=pay.charge')
    const item = queue.json.items.find((a: { callId: string }) => a.callId === callId)
    expect(item).toMatchObject({
      agent: { name: 'agent-a' },
      tool: { id: 'pay.charge', level: 'financial' },
      args: { amount: 42 },
      idempotencyKey: 'charge-42',
      policy: { source: 'policy' },
      rateLimit: { tool: { callsPerMinute: null, callsPerDay: null }, agent: { callsPerMinute: null, callsPerDay: null } },
    })

    // A repeat before the decision: still waiting, nothing runs.
    const repeatEarly = await charge(42, { idempotencyKey: 'charge-42' })
    expect(repeatEarly.structuredContent).toMatchObject({ status: 'approval_required', callId })

    const decided = await approve(item.id, 'ok by finance')
    expect(decided.status).toBe(200)
    await until('the approved call to run', async () => (await approvalOf(callId)).execution === 'succeeded')
    expect(charges()).toBe(before + 1)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: callId } })).toMatchObject({ outcome: 'succeeded', attempts: 1 })

    const status = await client.callTool({ name: 'toolroom.approval_status', arguments: { callId } })
    expect(status.structuredContent).toMatchObject({
      callId,
      status: 'approved',
      execution: 'succeeded',
      decision: { comment: 'ok by finance' },
      result: { structuredContent: { ok: true, path: '/charge' } },
    })

    const repeat = await charge(42, { idempotencyKey: 'charge-42' })
    expect(repeat.isError).toBeFalsy()
    expect(repeat.structuredContent).toMatchObject({ ok: true, path: '/charge' })
    expect(charges()).toBe(before + 1)
    // A second approval is refused: the decision was made once.
    expect((await approve(item.id)).status).toBe(409)
  }, 40_000)

  it('can wait for the decision and answer with the result in the same call', async () => {
    const before = charges()
    const pending = charge(7, { 'toolroom/waitForApprovalSeconds': 20 })
    const approval = await until('the request to appear', () => prisma.approvalRequest.findFirst({ where: { status: 'pending', toolId: 'pay.charge' } }))
    await approve(approval.id)
    const result = await pending
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ ok: true, path: '/charge' })
    expect(charges()).toBe(before + 1)
  }, 40_000)

  it('never runs a denied call, and says so to the agent', async () => {
    const before = charges()
    const first = await charge(13, { idempotencyKey: 'charge-13' })
    const callId = first.structuredContent!.callId as string
    const approval = await approvalOf(callId)
    expect(
      (
        await call(denyApi.POST, `/api/v1/approvals/${approval.id}/deny`, {
          method: 'POST',
          params: { id: approval.id },
          body: { comment: 'not this customer' },
        })
      ).status,
    ).toBe(200)
    const status = await client.callTool({ name: 'toolroom.approval_status', arguments: { callId } })
    expect(status.structuredContent).toMatchObject({ status: 'denied', outcome: 'rejected', decision: { comment: 'not this customer' } })
    await expect(charge(13, { idempotencyKey: 'charge-13' })).rejects.toThrow(/denied by .*not this customer/)
    // Only a queued execution job runs a call: a denial queues none, so none can ever charge.
    expect(await executionJobs(approval.id)).toEqual([])
    expect(charges()).toBe(before)
  }, 40_000)

  it('runs a call once when its approval was undone and given again, the worker waiting out each window', async () => {
    process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '1'
    reloadConfig()
    try {
      const before = charges()
      const first = await charge(55)
      const callId = first.structuredContent!.callId as string
      const approval = await approvalOf(callId)
      await approve(approval.id)
      const undone = await call(undoApi.POST, `/api/v1/approvals/${approval.id}/undo`, { method: 'POST', params: { id: approval.id } })
      expect(undone.json).toMatchObject({ status: 'pending', execution: null })
      expect((await approve(approval.id)).status).toBe(200)
      await until('the approved call to run', async () => (await approvalOf(callId)).execution === 'succeeded')
      // The first decision's job came due first and ran nothing; the second ran the call once.
      await until('both jobs to finish', async () => {
        const [{ n }] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1 AND state = 'completed'`,
          approval.id,
        )
        return Number(n) === 2
      })
      expect(charges()).toBe(before + 1)
    } finally {
      process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
      reloadConfig()
    }
  }, 40_000)

  it('loses nothing when the worker dies between the decision and the execution', async () => {
    await stopWorker()
    const before = charges()
    const first = await charge(99)
    const callId = first.structuredContent!.callId as string
    const approval = await approvalOf(callId)
    await approve(approval.id)
    // The hand-off is in the queue, and nothing runs it while no worker is up.
    await until('the approved call to be queued', async () => (await executionJobs(approval.id)).includes('created'))
    expect((await approvalOf(callId)).execution).toBe('queued')
    expect(charges()).toBe(before)
    worker = await startWorker()
    await until('the approved call to run on the new worker', async () => (await approvalOf(callId)).execution === 'succeeded')
    expect(charges()).toBe(before + 1)
  }, 120_000)
})

describe('what approvers see of a request', () => {
  const pendingView = async (callId: string) => {
    const queue = await call(approvalsApi.GET, '/api/v1/approvals?status=pending&tool=pay.charge&limit=500')
    expect(queue.status).toBe(200)
    return queue.json.items.find((a: { callId: string }) => a.callId === callId)
  }
  const applyJson = (doc: object) => call(applyRoute, '/api/v1/apply', { method: 'POST', body: JSON.stringify(doc), contentType: 'application/json' })
  const payCharge = () => prisma.tool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'pay.charge' } } })
  const toolDoc = (spec: object) => ({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'Tool', metadata: { name: 'pay.charge', namespace: 'gw' }, spec })
  const policyDoc = (spec: object) => ({
    apiVersion: 'toolroom.dev/v1alpha1',
    kind: 'SideEffectPolicy',
    metadata: { name: 'financial', namespace: 'gw' },
    spec: { level: 'financial', requiresApproval: true, ...spec },
  })

  it('by default: the first arguments in the row, and a financial call marked high-risk', async () => {
    const answer = await client.callTool({ name: 'pay.charge', arguments: { amount: 1250.5, customer: 'cus_1', note: 'x'.repeat(5000) } })
    const view = await pendingView((answer.structuredContent as { callId: string }).callId)
    expect(view).toMatchObject({ highRisk: true, policy: { summarySource: 'default', highRiskSource: 'default' } })
    expect(view.summary).toEqual([
      { field: 'amount', value: '1250.5' },
      { field: 'customer', value: 'cus_1' },
      { field: 'note', value: `${'x'.repeat(80)}…` },
    ])
  })

  it("a level's policy chooses the fields and whether approving asks first; a tool's own fields win over the level's", async () => {
    expect((await applyJson(policyDoc({ highRisk: false, approvalSummary: ['args.customer'] }))).status).toBe(200)
    const byPolicy = await client.callTool({ name: 'pay.charge', arguments: { amount: 5, customer: 'cus_2' } })
    expect(await pendingView((byPolicy.structuredContent as { callId: string }).callId)).toMatchObject({
      highRisk: false,
      summary: [{ field: 'customer', value: 'cus_2' }],
      policy: { summarySource: 'policy', highRiskSource: 'policy', summaryFields: ['args.customer'] },
    })

    const spec = (await payCharge()).spec as { sideEffects: object }
    expect((await applyJson(toolDoc({ ...spec, sideEffects: { ...spec.sideEffects, approvalSummary: ['args.amount', 'args.order.id'] } }))).status).toBe(200)
    const byTool = await client.callTool({ name: 'pay.charge', arguments: { amount: 6, customer: 'cus_3', order: { id: 'ord_7', lines: [1, 2] } } })
    expect(await pendingView((byTool.structuredContent as { callId: string }).callId)).toMatchObject({
      highRisk: false,
      summary: [
        { field: 'amount', value: '6' },
        { field: 'order.id', value: 'ord_7' },
      ],
      policy: { summarySource: 'tool' },
    })
    // Back to the shared registry's policy for the tests after this one.
    expect((await applyJson(policyDoc({}))).status).toBe(200)
    expect((await applyJson(toolDoc(spec))).status).toBe(200)
  })

  it('refuses fields that are not paths into the arguments, and a highRisk that is not a boolean, naming field and rule', async () => {
    const spec = (await payCharge()).spec as { sideEffects: object }
    const bad = await applyJson(toolDoc({ ...spec, sideEffects: { ...spec.sideEffects, approvalSummary: ['result.token', 'args.ok'] } }))
    expect(bad.status).toBe(422)
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'spec.sideEffects.approvalSummary[0]', rule: 'format' })])
    const tooMany = await applyJson(
      toolDoc({ ...spec, sideEffects: { ...spec.sideEffects, approvalSummary: Array.from({ length: 9 }, (_, i) => `args.f${i}`) } }),
    )
    expect(tooMany.status).toBe(422)
    expect(tooMany.json.errors).toEqual([expect.objectContaining({ field: 'spec.sideEffects.approvalSummary', rule: 'max-length' })])
    const notBoolean = await applyJson(policyDoc({ highRisk: 'yes' }))
    expect(notBoolean.status).toBe(422)
    expect(notBoolean.json.errors).toEqual([expect.objectContaining({ field: 'spec.highRisk', rule: 'type' })])
  })

  it('shows requests made before the fields were recorded with the defaults of their level', async () => {
    const answer = await client.callTool({ name: 'pay.charge', arguments: { amount: 9 } })
    const callId = (answer.structuredContent as { callId: string }).callId
    await prisma.approvalRequest.update({ where: { callId }, data: { policy: { source: 'policy', level: 'financial' } } })
    expect(await pendingView(callId)).toMatchObject({ highRisk: true, summary: [{ field: 'amount', value: '9' }] })
  })
})
