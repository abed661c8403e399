// The approval queue against a real database: requests, decisions (one winner under a race),
// expiry, bulk decisions, exactly-once execution hand-off, the queue's figures, and signed webhooks
// delivered by a real worker process to a real HTTP receiver, with retries.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as approvalsApi from '@/app/api/v1/approvals/route'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import * as denyApi from '@/app/api/v1/approvals/[id]/deny/route'
import * as undoApi from '@/app/api/v1/approvals/[id]/undo/route'
import * as oneApi from '@/app/api/v1/approvals/[id]/route'
import * as bulkApi from '@/app/api/v1/approvals/decide/route'
import * as statsApi from '@/app/api/v1/approvals/stats/route'
import * as webhooksApi from '@/app/api/v1/webhooks/route'
import * as deliveriesApi from '@/app/api/v1/webhooks/[id]/deliveries/route'
import { executeApprovedCall, type ApprovedCallRunner } from '@/lib/approvals/execute-approved-call'
import { expireApprovals, requeueStrandedApprovals } from '@/lib/approvals/expire-approvals'
import { announceApprovalRequest, requestApproval } from '@/lib/approvals/request-approval'
import { currentApprovalAnswer } from '@/lib/gateway/approval-answers'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { sealSecretValues } from '@/lib/secrets/encryption'
import { hashToken } from '@/lib/auth/secret-token'
import { until } from '../support/until'
import { startWorkerProcess } from '../support/worker-process'
import { call } from './helpers'

process.env.TOOLROOM_WEBHOOK_RETRY_DELAY_SECONDS = '1'
process.env.TOOLROOM_QUEUE_MAINTENANCE_SECONDS = '1'
// Decisions take effect at once here, but in the undo tests, which open a window of their own.
process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
reloadConfig()

const AGENT = { id: randomUUID(), namespace: 'default', name: 'billing-bot', unit: 'finance' }

async function pendingCall(over: { tool?: string; level?: 'financial' | 'communication' | 'privileged'; args?: unknown } = {}) {
  const toolId = over.tool ?? 'payments.refund'
  const callRow = await prisma.toolCall.create({
    data: {
      agentId: AGENT.id,
      agentNamespace: AGENT.namespace,
      agentName: AGENT.name,
      unit: AGENT.unit,
      toolId,
      toolNamespace: toolId.split('.')[0],
      provenance: 'grant',
      level: over.level ?? 'financial',
      channel: 'mcp',
      outcome: 'pending_approval',
      idempotencyKey: `key-${randomUUID()}`,
    },
  })
  const args = over.args ?? { orderId: 'A-1', amount: 125, cardNumber: '4111111111111111' }
  return requestApproval({
    callId: callRow.id,
    agent: AGENT,
    tool: { id: toolId, namespace: toolId.split('.')[0], level: over.level ?? 'financial' },
    approvalSource: 'default',
    args,
    redactedArgs: { ...(args as object), cardNumber: '[redacted]' },
    idempotencyKey: callRow.idempotencyKey,
    rateLimit: { tool: { callsPerMinute: 10, callsPerDay: null }, agent: { callsPerMinute: null, callsPerDay: 500 } },
  })
}

beforeEach(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE "ApprovalRequest", "WebhookDelivery", "WebhookEndpoint", "ToolCall"')
})

describe('the queue', () => {
  it('lists pending requests oldest first with what approvers need, and never the sealed arguments', async () => {
    const first = await pendingCall()
    const second = await pendingCall({ tool: 'mail.send', level: 'communication' })
    const res = await call(approvalsApi.GET, '/api/v1/approvals?status=pending')
    expect(res.status).toBe(200)
    expect(res.json.total).toBe(2)
    expect(res.json.items.map((a: { id: string }) => a.id)).toEqual([first.id, second.id])
    const item = res.json.items[0]
    expect(item).toMatchObject({
      status: 'pending',
      agent: { name: 'billing-bot', unit: 'finance' },
      tool: { id: 'payments.refund', level: 'financial' },
      args: { orderId: 'A-1', cardNumber: '[redacted]' },
      policy: { source: 'default', level: 'financial', expirySource: 'default' },
      rateLimit: { tool: { callsPerMinute: 10, callsPerDay: null }, agent: { callsPerMinute: null, callsPerDay: 500 } },
    })
    expect(item.secondsLeft).toBeGreaterThan(3600)
    // The row's summary: the first arguments, as redacted as the rest; money and privilege ask first.
    expect(item.summary).toEqual([
      { field: 'orderId', value: 'A-1' },
      { field: 'amount', value: '125' },
      { field: 'cardNumber', value: '[redacted]' },
    ])
    expect(item.highRisk).toBe(true)
    expect(res.json.items[1]).toMatchObject({ tool: { level: 'communication' }, highRisk: false })
    expect(res.text).not.toContain('4111111111111111')
    expect(res.text).not.toContain('argsSealed')
    const stored = await prisma.$queryRawUnsafe<{ raw: string }[]>(`SELECT row_to_json(a)::text AS raw FROM "ApprovalRequest" a`)
    expect(stored.map((r) => r.raw).join()).not.toContain('4111111111111111')
  })

  it('filters by level, agent, tool and namespace, and pages with a cursor', async () => {
    for (let i = 0; i < 5; i++) await pendingCall()
    await pendingCall({ tool: 'mail.send', level: 'communication' })
    expect((await call(approvalsApi.GET, '/api/v1/approvals?level=communication')).json.total).toBe(1)
    expect((await call(approvalsApi.GET, '/api/v1/approvals?namespace=payments')).json.total).toBe(5)
    expect((await call(approvalsApi.GET, '/api/v1/approvals?tool=mail.send')).json.total).toBe(1)
    expect((await call(approvalsApi.GET, '/api/v1/approvals?agent=nobody')).json.total).toBe(0)
    // An agent as everywhere else: a name in any namespace, namespace/name, or its id.
    for (const agent of [AGENT.name, `${AGENT.namespace}/${AGENT.name}`, AGENT.id])
      expect((await call(approvalsApi.GET, `/api/v1/approvals?agent=${encodeURIComponent(agent)}`)).json.total, agent).toBe(6)
    expect((await call(approvalsApi.GET, `/api/v1/approvals?agent=${encodeURIComponent(`elsewhere/${AGENT.name}`)}`)).json.total).toBe(0)
    const page1 = await call(approvalsApi.GET, '/api/v1/approvals?limit=4')
    const page2 = await call(approvalsApi.GET, `/api/v1/approvals?limit=4&cursor=${page1.json.nextCursor}`)
    expect(page1.json.items).toHaveLength(4)
    expect(page2.json.items).toHaveLength(2)
    expect(page2.json.nextCursor).toBeNull()
    const ids = [...page1.json.items, ...page2.json.items].map((a: { id: string }) => a.id)
    expect(new Set(ids).size).toBe(6)
    const forged = await call(approvalsApi.GET, `/api/v1/approvals?cursor=${Buffer.from('["not a time","","x"]').toString('base64url')}`)
    expect(forged.status).toBe(400)
    expect(forged.json.errors[0]).toMatchObject({ field: 'cursor', rule: 'cursor' })
  })

  it('takes an expiry from the level policy or the tool over the default', async () => {
    await prisma.sideEffectPolicy.create({
      data: {
        apiVersion: 'toolroom.dev/v1alpha1',
        namespace: 'default',
        name: 'communication',
        level: 'communication',
        spec: { level: 'communication', requiresApproval: true, approvalExpirySeconds: 600 },
      },
    })
    try {
      const a = await pendingCall({ tool: 'mail.send', level: 'communication' })
      expect(a.policy).toMatchObject({ expirySeconds: 600, expirySource: 'policy' })
      expect(Math.round((a.expiresAt.getTime() - a.requestedAt.getTime()) / 1000)).toBeGreaterThanOrEqual(599)
    } finally {
      await prisma.sideEffectPolicy.deleteMany({ where: { level: 'communication' } })
    }
  })
})

describe('deciding', () => {
  it('approves once: the call is marked approved, queued for a worker, and the decision audited', async () => {
    const a = await pendingCall()
    const res = await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, {
      method: 'POST',
      params: { id: a.id },
      body: { comment: 'refund agreed with customer' },
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ status: 'approved', decision: { comment: 'refund agreed with customer' }, execution: { status: 'queued' } })
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: a.callId } })).outcome).toBe('approved')
    const jobs = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1`,
      a.id,
    )
    expect(Number(jobs[0].n)).toBe(1)
    const audit = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'approval.approved', resourceId: a.callId } })
    expect(audit.detail).toMatchObject({ comment: 'refund agreed with customer', policy: { source: 'default' } })
  })

  it('accepts a decision without a body', async () => {
    const a = await pendingCall()
    const res = await call(denyApi.POST, `/api/v1/approvals/${a.id}/deny`, { method: 'POST', params: { id: a.id } })
    expect(res.status).toBe(200)
    expect(res.json.status).toBe('denied')
    const callRow = await prisma.toolCall.findFirstOrThrow({ where: { id: a.callId } })
    expect(callRow).toMatchObject({ outcome: 'rejected', errorCode: 'approval_denied' })
    expect(
      await prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1`, a.id),
    ).toHaveLength(0)
  })

  it('gives two approvers deciding at once one winner, and tells the other who decided', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await pendingCall()
      const [x, y] = await Promise.all([
        call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: {} }),
        call(denyApi.POST, `/api/v1/approvals/${a.id}/deny`, { method: 'POST', params: { id: a.id }, body: {} }),
      ])
      expect([x.status, y.status].sort()).toEqual([200, 409])
      const loser = x.status === 409 ? x : y
      const row = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })
      expect(loser.json.detail).toContain(`already ${row.status} by ${row.decidedByName}`)
      const audits = await prisma.auditEvent.count({ where: { resourceId: a.callId, action: { startsWith: 'approval.' } } })
      expect(audits).toBe(1)
    }
  })

  it('refuses to decide an expired request, and the sweep closes it as expired', async () => {
    const a = await pendingCall()
    await prisma.approvalRequest.update({ where: { id: a.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const res = await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: {} })
    expect(res.status).toBe(409)
    expect(res.json.detail).toMatch(/expired/)
    const expired = await expireApprovals()
    expect(expired.map((r) => r.id)).toEqual([a.id])
    expect((await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })).status).toBe('expired')
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: a.callId } })).outcome).toBe('expired')
    expect(await prisma.auditEvent.count({ where: { action: 'approval.expired', resourceId: a.callId } })).toBe(1)
    expect(await expireApprovals()).toHaveLength(0)
  })

  it('decides many at once, each on its own', async () => {
    const [a, b, c] = [await pendingCall(), await pendingCall(), await pendingCall()]
    await call(denyApi.POST, `/api/v1/approvals/${b.id}/deny`, { method: 'POST', params: { id: b.id }, body: {} })
    const res = await call(bulkApi.POST, '/api/v1/approvals/decide', {
      method: 'POST',
      body: { ids: [a.id, b.id, c.id], decision: 'approve', comment: 'batch' },
    })
    expect(res.status).toBe(200)
    expect(res.json.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true])
    expect(res.json.results[1].error).toMatch(/already denied/)
  })

  it('answers hostile input with problem+json naming the field', async () => {
    const a = await pendingCall()
    const cases = [
      await call(approveApi.POST, '/api/v1/approvals/not-a-uuid/approve', { method: 'POST', params: { id: 'not-a-uuid' }, body: {} }),
      await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: { comment: 'x'.repeat(2001) } }),
      await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: { comment: 'ok', extra: 1 } }),
      await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, {
        method: 'POST',
        params: { id: a.id },
        body: '{"comment":',
        contentType: 'application/json',
      }),
      await call(bulkApi.POST, '/api/v1/approvals/decide', {
        method: 'POST',
        body: { ids: Array.from({ length: 501 }, () => randomUUID()), decision: 'approve' },
      }),
      await call(bulkApi.POST, '/api/v1/approvals/decide', { method: 'POST', body: { ids: [a.id], decision: 'maybe' } }),
      await call(approvalsApi.GET, '/api/v1/approvals?limit=100000'),
      await call(approvalsApi.GET, '/api/v1/approvals?status=everything'),
      await call(approvalsApi.GET, '/api/v1/approvals?cursor=%00%00'),
    ]
    expect(cases.map((r) => r.status)).toEqual([400, 422, 422, 400, 422, 422, 400, 400, 422])
    for (const r of cases) expect(r.contentType).toContain('application/problem+json')
    expect(cases[1].json.detail).toContain('comment')
    expect(cases[4].json.detail).toContain('ids')
    expect((await call(oneApi.GET, `/api/v1/approvals/${randomUUID()}`, { params: { id: randomUUID() } })).status).toBe(404)
    expect((await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })).status).toBe('pending')
  })
})

describe('execution after approval', () => {
  function countingRunner(safe: boolean) {
    const runs: string[] = []
    const runner: ApprovedCallRunner = {
      run: async (approval, args) => {
        runs.push(`${approval.id}:${JSON.stringify(args)}`)
        await new Promise((r) => setTimeout(r, 20))
        return { ok: true }
      },
      safeToRepeat: async () => safe,
      abandon: async () => {},
    }
    return { runs, runner }
  }

  it('runs an approved call once, however many workers get its job, with the original arguments', async () => {
    const a = await pendingCall({ args: { orderId: 'A-9', cardNumber: '4000000000000002' } })
    await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: {} })
    const { runs, runner } = countingRunner(false)
    const results = await Promise.all(Array.from({ length: 6 }, () => executeApprovedCall(a.id, 1, runner)))
    expect(results.filter((r) => r === 'executed')).toHaveLength(1)
    expect(runs).toEqual([`${a.id}:{"orderId":"A-9","cardNumber":"4000000000000002"}`])
    const row = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })
    expect(row).toMatchObject({ execution: 'succeeded', argsSealed: null })
  })

  it('never runs a denied or pending call', async () => {
    const a = await pendingCall()
    const { runs, runner } = countingRunner(true)
    expect(await executeApprovedCall(a.id, 1, runner)).toBe('not-approved')
    expect(runs).toHaveLength(0)
  })

  it('after a worker died mid-call, repeats it only when the tool is safe to repeat', async () => {
    for (const safe of [false, true]) {
      const a = await pendingCall()
      await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: {} })
      await prisma.approvalRequest.update({ where: { id: a.id }, data: { execution: 'running' } })
      const { runs, runner } = countingRunner(safe)
      expect(await executeApprovedCall(a.id, 2, runner)).toBe(safe ? 'executed' : 'abandoned')
      expect(runs).toHaveLength(safe ? 1 : 0)
      expect((await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })).execution).toBe(safe ? 'succeeded' : 'failed')
    }
  })

  it('re-queues an approved call whose hand-off was lost', async () => {
    const a = await pendingCall()
    await prisma.approvalRequest.update({ where: { id: a.id }, data: { status: 'approved', execution: 'queued', decidedAt: new Date(Date.now() - 60_000) } })
    expect(await requeueStrandedApprovals(30)).toBe(1)
    const jobs = await prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1`, a.id)
    expect(jobs).toHaveLength(1)
  })
})

describe('undo', () => {
  const approve = (id: string) => call(approveApi.POST, `/api/v1/approvals/${id}/approve`, { method: 'POST', params: { id }, body: {} })
  const undo = (id: string) => call(undoApi.POST, `/api/v1/approvals/${id}/undo`, { method: 'POST', params: { id } })
  const takeEffectNow = (id: string) => prisma.$executeRaw`UPDATE "ApprovalRequest" SET "effectiveAt" = now() - interval '1 second' WHERE id = ${id}::uuid`
  const jobsOf = (id: string) =>
    prisma.$queryRawUnsafe<{ version: number | null; startAfter: Date }[]>(
      `SELECT (data->>'decisionVersion')::int AS version, start_after AS "startAfter" FROM pgboss.job WHERE name = 'approvals.execute' AND data->>'approvalId' = $1 ORDER BY created_on`,
      id,
    )
  function countingRunner() {
    const runs: string[] = []
    const runner: ApprovedCallRunner = {
      run: async (approval) => {
        runs.push(approval.id)
        return { ok: true }
      },
      safeToRepeat: async () => false,
      abandon: async () => {},
    }
    return { runs, runner }
  }

  beforeEach(() => {
    process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '30'
    reloadConfig()
  })
  afterAll(() => {
    process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
    reloadConfig()
  })

  it('queues the execution for when the decision takes effect, and runs nothing before', async () => {
    const a = await pendingCall()
    const res = await approve(a.id)
    expect(res.status).toBe(200)
    const effectiveAt = new Date(res.json.decision.effectiveAt).getTime()
    expect(effectiveAt - new Date(res.json.decision.at).getTime()).toBe(30_000)
    const [job] = await jobsOf(a.id)
    expect(job.version).toBe(1)
    expect(job.startAfter.getTime()).toBe(effectiveAt)
    const { runs, runner } = countingRunner()
    expect(await executeApprovedCall(a.id, 1, runner, 1)).toBe('not-yet')
    expect(runs).toHaveLength(0)
  })

  it('returns an approval to pending: the call is waiting again, the job queued for it runs nothing, and the undo is audited', async () => {
    const a = await pendingCall()
    await approve(a.id)
    const res = await undo(a.id)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ status: 'pending', decision: null, execution: null })
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: a.callId } })).outcome).toBe('pending_approval')
    await takeEffectNow(a.id)
    const { runs, runner } = countingRunner()
    expect(await executeApprovedCall(a.id, 1, runner, 1)).toBe('superseded')
    expect(runs).toHaveLength(0)
    const audit = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'approval.undone', resourceId: a.callId } })
    expect(audit).toMatchObject({ before: { status: 'approved' }, after: { status: 'pending' } })
  })

  it('undoes a denial before the agent is told: the call is waiting again, not refused', async () => {
    const a = await pendingCall()
    await call(denyApi.POST, `/api/v1/approvals/${a.id}/deny`, { method: 'POST', params: { id: a.id }, body: { comment: 'wrong row' } })
    const tool = { name: 'payments.refund', sideEffects: { level: 'financial' } } as Parameters<typeof currentApprovalAnswer>[1]
    expect(await currentApprovalAnswer(a.callId, tool)).toMatchObject({
      result: { structuredContent: { status: 'approval_required', approvalStatus: 'pending' } },
    })
    expect((await undo(a.id)).json.status).toBe('pending')
    const callRow = await prisma.toolCall.findFirstOrThrow({ where: { id: a.callId } })
    expect(callRow).toMatchObject({ outcome: 'pending_approval', errorCode: null, finishedAt: null })
    expect((await approve(a.id)).json.status).toBe('approved')
  })

  it('runs the call once after an undo and a second approval', async () => {
    const a = await pendingCall()
    await approve(a.id)
    await undo(a.id)
    await approve(a.id)
    expect((await jobsOf(a.id)).map((j) => j.version)).toEqual([1, 3])
    await takeEffectNow(a.id)
    const { runs, runner } = countingRunner()
    const results = await Promise.all([1, 3, 1, 3, 3].map((v) => executeApprovedCall(a.id, 1, runner, v)))
    expect(results.sort()).toEqual(['already-done', 'already-done', 'executed', 'superseded', 'superseded'])
    expect(runs).toEqual([a.id])
  })

  it("lets only the decider or an admin undo: another approver's undo is refused and changes nothing", async () => {
    const tokenOf = async (userId: string) => {
      const token = `trk_${randomUUID().replaceAll('-', '')}`
      await prisma.apiToken.create({ data: { name: 'cli', hash: hashToken(token), hint: token.slice(0, 10), scopes: ['approve'], userId } })
      return { token }
    }
    const approverToken = async (name: string) => {
      const user = await prisma.user.create({ data: { name, email: `${name}-${randomUUID()}@toolroom.test`, role: 'approver' } })
      return { ...(await tokenOf(user.id)), userId: user.id }
    }
    const alice = await approverToken('alice')
    const bob = await approverToken('bob')
    const a = await pendingCall()
    const decided = await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: {}, as: alice })
    expect(decided.status).toBe(200)
    const byBob = await call(undoApi.POST, `/api/v1/approvals/${a.id}/undo`, { method: 'POST', params: { id: a.id }, as: bob })
    expect(byBob.status).toBe(403)
    expect(byBob.json.detail).toMatch(new RegExp(`^approval "${a.id}" was decided by cli \\(alice-[^)]+\\): only they or an admin can undo it$`))
    const row = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })
    expect({ status: row.status, version: row.decisionVersion }).toEqual({ status: 'approved', version: 1 })
    expect(await prisma.auditEvent.count({ where: { action: 'approval.undone', resourceId: a.callId } })).toBe(0)
    const byAlice = await call(undoApi.POST, `/api/v1/approvals/${a.id}/undo`, { method: 'POST', params: { id: a.id }, as: alice })
    expect(byAlice.json.status).toBe('pending')
    const b = await pendingCall()
    await call(approveApi.POST, `/api/v1/approvals/${b.id}/approve`, { method: 'POST', params: { id: b.id }, body: {}, as: bob })
    expect((await undo(b.id)).json.status).toBe('pending')
    const c = await pendingCall()
    await call(approveApi.POST, `/api/v1/approvals/${c.id}/approve`, { method: 'POST', params: { id: c.id }, body: {}, as: bob })
    const bobsOtherToken = await tokenOf(bob.userId)
    expect((await call(undoApi.POST, `/api/v1/approvals/${c.id}/undo`, { method: 'POST', params: { id: c.id }, as: bobsOtherToken })).json.status).toBe(
      'pending',
    )
  })

  it('refuses an undo once the decision took effect or the call started, saying why', async () => {
    const a = await pendingCall()
    await approve(a.id)
    await takeEffectNow(a.id)
    const late = await undo(a.id)
    expect(late.status).toBe(409)
    expect(late.contentType).toContain('application/problem+json')
    expect(late.json.detail).toMatch(/can no longer be undone: the decision \(approved\) took effect at/)

    const b = await pendingCall()
    await approve(b.id)
    await prisma.approvalRequest.update({ where: { id: b.id }, data: { execution: 'running' } })
    expect((await undo(b.id)).json.detail).toMatch(/the approved call is running/)

    const c = await pendingCall()
    expect((await undo(c.id)).json.detail).toMatch(/no decision to undo/)
    expect((await undo(randomUUID())).status).toBe(404)
    expect((await call(undoApi.POST, '/api/v1/approvals/x/undo', { method: 'POST', params: { id: 'x' } })).status).toBe(400)
    expect(await prisma.auditEvent.count({ where: { action: 'approval.undone', resourceId: { in: [a.callId, b.callId, c.callId] } } })).toBe(0)
  })

  it('never both undoes and runs a call when the undo races the worker at the end of the window', async () => {
    const { runs, runner } = countingRunner()
    for (let round = 0; round < 12; round++) {
      const a = await pendingCall()
      await approve(a.id)
      // The window closes a few milliseconds from now, while both sides keep trying.
      await prisma.$executeRaw`UPDATE "ApprovalRequest" SET "effectiveAt" = now() + make_interval(secs => ${(round % 4) * 0.01}) WHERE id = ${a.id}::uuid`
      const undoing = undo(a.id).then((res) => res.status)
      const executing = (async () => {
        for (;;) {
          const result = await executeApprovedCall(a.id, 1, runner, 1)
          if (result !== 'not-yet') return result
        }
      })()
      const [undone, executed] = await Promise.all([undoing, executing])
      const row = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: a.id } })
      const ran = runs.filter((id) => id === a.id).length
      if (undone === 200) expect({ executed, ran, status: row.status }).toEqual({ executed: 'superseded', ran: 0, status: 'pending' })
      else
        expect({ undone, executed, ran, status: row.status, execution: row.execution }).toEqual({
          undone: 409,
          executed: 'executed',
          ran: 1,
          status: 'approved',
          execution: 'succeeded',
        })
    }
  })
})

describe('figures', () => {
  it('reports queue depth and time to decision', async () => {
    await pendingCall()
    const decided = await pendingCall()
    await prisma.approvalRequest.update({ where: { id: decided.id }, data: { requestedAt: new Date(Date.now() - 120_000) } })
    await call(approveApi.POST, `/api/v1/approvals/${decided.id}/approve`, { method: 'POST', params: { id: decided.id }, body: {} })
    const res = await call(statsApi.GET, '/api/v1/approvals/stats')
    expect(res.status).toBe(200)
    expect(res.json.pending).toBe(1)
    expect(res.json.timeToDecisionSeconds.decided).toBe(1)
    expect(res.json.timeToDecisionSeconds.p50).toBeGreaterThanOrEqual(119)
    expect(res.json.decided7d).toEqual({ approved: 1, denied: 0, expired: 0 })
  })
})

describe('webhooks, delivered by a worker', () => {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = []
  let failuresLeft = 0
  let receiver: http.Server
  let url = ''
  let worker: ChildProcess | null = null

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft--
          return void res.writeHead(503).end()
        }
        received.push({ headers: req.headers, body })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    worker = await startWorkerProcess({ TOOLROOM_WORKER_POLL_SECONDS: '0.5', TOOLROOM_WORKER_CONCURRENCY: '2' })
  })

  afterAll(async () => {
    worker?.kill('SIGTERM')
    await new Promise((r) => worker?.once('exit', r))
    receiver.close()
  })

  it('signs each new request and decision, and retries a failing receiver', async () => {
    const created = await call(webhooksApi.POST, '/api/v1/webhooks', {
      method: 'POST',
      body: { name: 'pager', url, events: ['approval.requested', 'approval.decided'] },
    })
    expect(created.status).toBe(201)
    const secret = created.json.secret as string
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect((await call(webhooksApi.GET, '/api/v1/webhooks')).text).not.toContain(secret)

    failuresLeft = 2
    const a = await pendingCall()
    await announceApprovalRequest(a)
    await call(approveApi.POST, `/api/v1/approvals/${a.id}/approve`, { method: 'POST', params: { id: a.id }, body: { comment: 'fine' } })

    await until('both deliveries (requested, then decided after two failed attempts)', () => received.length >= 2, { timeoutMs: 30_000 })
    expect(received.map((r) => r.headers['toolroom-event']).sort()).toEqual(['approval.decided', 'approval.requested'])
    // Verified as receivers do, with the Standard Webhooks library as it comes.
    const deliveryIds = new Set<string>()
    for (const r of received) {
      const headers = r.headers as Record<string, string>
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      expect(new Webhook(secret).verify(r.body, headers)).toMatchObject({ id: headers['webhook-id'] })
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(r.body, headers)).toThrow(WebhookVerificationError)
      expect(() => new Webhook(secret).verify(r.body.replace('approval', 'appr0val'), headers)).toThrow(WebhookVerificationError)
      expect(r.body).not.toContain('4111111111111111')
      deliveryIds.add(headers['webhook-id'])
    }
    expect(deliveryIds.size).toBe(2)
    const decided = JSON.parse(received.find((r) => r.headers['toolroom-event'] === 'approval.decided')!.body)
    expect(decided.data.approval).toMatchObject({ id: a.id, status: 'approved', decision: { comment: 'fine' } })
    const deliveries = await call(deliveriesApi.GET, `/api/v1/webhooks/${created.json.id}/deliveries`, { params: { id: created.json.id } })
    expect(deliveries.json.items.every((d: { status: string }) => d.status === 'delivered')).toBe(true)
    expect(deliveries.json.items.reduce((n: number, d: { attempts: number }) => n + d.attempts, 0)).toBe(4)
  }, 40_000)

  it('delivers to the registered URL only: a redirect is a failed attempt, never followed', async () => {
    const target = http.createServer((req, res) => {
      received.push({ headers: req.headers, body: 'followed' })
      res.writeHead(204).end()
    })
    const redirector = http.createServer((req, res) => {
      req.resume()
      res.writeHead(307, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks` }).end()
    })
    await Promise.all([target, redirector].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))))
    try {
      received.length = 0
      const created = await call(webhooksApi.POST, '/api/v1/webhooks', {
        method: 'POST',
        body: { name: 'moved', url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hooks`, events: ['approval.requested'] },
      })
      await announceApprovalRequest(await pendingCall())
      const delivery = await until('a first delivery attempt to the redirecting endpoint', async () => {
        const first = (await call(deliveriesApi.GET, `/api/v1/webhooks/${created.json.id}/deliveries`, { params: { id: created.json.id } })).json.items[0]
        return first?.attempts ? (first as { attempts: number; lastError: string | null }) : null
      })
      expect(delivery?.lastError).toMatch(/more than 0 redirects/)
      expect(received).toEqual([])
    } finally {
      target.close()
      redirector.close()
    }
  }, 30_000)

  it('signs for endpoints whose secret predates the format with the secret text itself, which stock verifiers take as a raw key', async () => {
    received.length = 0
    const legacy = 'whsec_an-old-base64url_secret-000'
    const sealed = sealSecretValues({ secret: legacy })
    await prisma.webhookEndpoint.create({
      data: { name: 'legacy', url, events: ['approval.requested'], enabled: true, secretCiphertext: new Uint8Array(sealed.ciphertext), keyId: sealed.keyId },
    })
    await announceApprovalRequest(await pendingCall())
    await until('the delivery to the endpoint with the old-format secret', () => received.length >= 1)
    const headers = received[0].headers as Record<string, string>
    expect(new Webhook(legacy, { format: 'raw' }).verify(received[0].body, headers)).toMatchObject({ event: 'approval.requested' })
  }, 30_000)

  it('takes a secret an admin chooses only in the standard form', async () => {
    const body = (secret: string) => ({ name: `chosen-${secret.length}`, url, events: ['approval.requested'], secret })
    const good = `whsec_${Buffer.alloc(24, 1).toString('base64')}`
    expect((await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: body(good) })).json.secret).toBe(good)
    for (const secret of [
      'a plain sixteen-plus character secret',
      'whsec_not base64!!',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
    ]) {
      const res = await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: body(secret) })
      expect(res.status, secret).toBe(422)
      expect(res.json.errors).toEqual([expect.objectContaining({ field: 'secret', message: expect.stringContaining('whsec_') })])
    }
  })

  it('refuses webhook URLs and names that break the rules', async () => {
    const bad = [
      await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: { name: 'Bad Name', url, events: ['approval.requested'] } }),
      await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: { name: 'x', url: 'ftp://example.com', events: ['approval.requested'] } }),
      await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: { name: 'y', url, events: [] } }),
      await call(webhooksApi.POST, '/api/v1/webhooks', { method: 'POST', body: { name: 'z', url, events: ['everything'] } }),
    ]
    expect(bad.map((r) => r.status)).toEqual([422, 422, 422, 422])
    expect(bad[0].json.detail).toContain('name')
    expect(bad[1].json.detail).toContain('url')
  })
})
