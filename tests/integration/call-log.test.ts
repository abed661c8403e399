// The call log with a lifetime (docs/design/call-log.md): day partitions created ahead by the
// worker's upkeep; days past TOOLROOM_CALL_RETENTION_DAYS dropped whole, never row by row, except a
// day holding a call that waits for approval; a call of a day without a partition still recorded;
// approvals and idempotency across a UTC midnight; and the NDJSON export (API and CLI), complete and
// as redacted as the stored calls.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { statsRoutes } from '@/lib/api/stats-routes'
import { expireApprovals } from '@/lib/approvals/expire-approvals'
import { requestApproval } from '@/lib/approvals/request-approval'
import { maintainCallPartitions } from '@/lib/call-log/maintain-call-partitions'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { type CallRecord, insertCalls, recordCall } from '@/lib/gateway/record-call'
import { startApiServer } from '../support/api-server'
import { startGatewayWorld } from '../support/gateway-fixtures'
import type { Listening } from '../support/listen'
import { buildCli, runCli } from '../support/toolroom-cli'
import { call, testAdminToken } from './helpers'

process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
reloadConfig()

const DAY_MS = 86_400_000
const SECRET = 'sk-live-CALL-LOG-5e1f0a9b8c7d'
const BODY_VALUE = 'my card number is 4111-1111-1111-1111'
const EMAIL_VALUE = 'kept.private@example.org'
const AGENT = { id: randomUUID(), namespace: 'default', name: 'ledger-bot', unit: null }

type World = Awaited<ReturnType<typeof startGatewayWorld>>
let world: World
let api: Listening
let home: string

const today = () => Math.floor(Date.now() / DAY_MS) * DAY_MS
const partitionOf = (at: number | Date) => `ToolCall_p${new Date(at).toISOString().slice(0, 10).replaceAll('-', '')}`

async function partitions(): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ name: string }>>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"ToolCall"'::regclass`
  return rows.map((r) => r.name)
}

async function partitionHolding(id: string): Promise<string | undefined> {
  const [row] = await prisma.$queryRaw<Array<{ name: string }>>`SELECT tableoid::regclass::text AS name FROM "ToolCall" WHERE id = ${id}::uuid`
  return row?.name.replaceAll('"', '')
}

function callAt(startedAt: number, over: Partial<CallRecord> = {}): CallRecord {
  return {
    id: randomUUID(),
    startedAt: new Date(startedAt),
    finishedAt: null,
    agentId: AGENT.id,
    agentNamespace: AGENT.namespace,
    agentName: AGENT.name,
    unit: null,
    toolId: 'ledger.post',
    toolNamespace: 'ledger',
    toolKey: 'Tool/default/ledger.post',
    provenance: 'grant',
    level: 'financial',
    channel: 'ingest',
    outcome: 'succeeded',
    errorCode: null,
    errorMessage: null,
    latencyMs: 5,
    attempts: 1,
    idempotencyKey: null,
    args: null,
    result: null,
    requestId: null,
    ...over,
  }
}

/** A call waiting for approval at `startedAt`, and its request. */
async function pendingCallAt(startedAt: number) {
  const record = callAt(startedAt, { outcome: 'pending_approval', channel: 'mcp' })
  await insertCalls([record])
  const approval = await requestApproval({
    callId: record.id,
    agent: AGENT,
    tool: { id: record.toolId, namespace: record.toolNamespace, level: 'financial' },
    approvalSource: 'default',
    args: { amount: 10 },
    redactedArgs: { amount: 10 },
    idempotencyKey: null,
    rateLimit: { tool: { callsPerMinute: null, callsPerDay: null }, agent: { callsPerMinute: null, callsPerDay: null } },
  })
  return { record, approval }
}

const restCall = (toolId: string, body: unknown) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body,
    params: { toolId },
    headers: { authorization: `Bearer ${world.tokens.tokenA}` },
  })

beforeAll(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE "ApprovalRequest", "ToolCall", "GatewayIdempotency"')
  world = await startGatewayWorld(SECRET)
  await buildCli()
  api = await startApiServer()
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-call-log-'))
}, 120_000)

afterAll(async () => {
  await world?.stop()
  await api?.close()
  if (home) fs.rmSync(home, { recursive: true, force: true })
})

describe("the worker's upkeep", () => {
  it('creates the partitions of the day and the week ahead, once', async () => {
    const now = new Date(today() + 100 * DAY_MS + 3_600_000)
    const ahead = Array.from({ length: 8 }, (_, i) => partitionOf(today() + (100 + i) * DAY_MS))
    const first = await maintainCallPartitions({ now, retentionDays: 3650 })
    expect(first.created).toEqual(ahead)
    expect(first.dropped).toEqual([])
    expect(await partitions()).toEqual(expect.arrayContaining(ahead))
    expect((await maintainCallPartitions({ now, retentionDays: 3650 })).created).toEqual([])
  })

  it('drops the days past retention whole, and keeps the recent days and a day holding a call that waits for approval', async () => {
    const t = today() + 3_600_000
    const days = { d45: t - 45 * DAY_MS, d40: t - 40 * DAY_MS, d31: t - 31 * DAY_MS, d29: t - 29 * DAY_MS, d2: t - 2 * DAY_MS, now: Date.now() - 60_000 }
    // Days that have no partition (the migration made 8 back): written anyway, their partitions made on demand.
    const ids: Record<string, string[]> = {}
    for (const [day, at] of Object.entries(days)) {
      const records = [0, 1, 2].map((i) => callAt(at + i * 1000))
      expect(await insertCalls(records)).toBe(3)
      ids[day] = records.map((r) => r.id)
    }
    const held = await pendingCallAt(days.d40 + 5000)
    const dirtyHours = await prisma.callStatDirtyHour.count()

    const upkeep = await maintainCallPartitions({ retentionDays: 30 })
    expect(upkeep.dropped).toEqual([partitionOf(days.d45), partitionOf(days.d31)])
    expect(upkeep.kept).toEqual([{ partition: partitionOf(days.d40), waitingCalls: 1 }])
    const left = async (day: string) => prisma.toolCall.count({ where: { id: { in: ids[day] } } })
    expect({
      d45: await left('d45'),
      d40: await left('d40'),
      d31: await left('d31'),
      d29: await left('d29'),
      d2: await left('d2'),
      now: await left('now'),
    }).toEqual({
      d45: 0,
      d40: 3,
      d31: 0,
      d29: 3,
      d2: 3,
      now: 3,
    })
    expect(await partitions()).not.toContain(partitionOf(days.d45))
    // A DELETE would have marked the deleted calls' hours for the statistics; a dropped table marks none.
    expect(await prisma.callStatDirtyHour.count()).toBe(dirtyHours)

    // The request expires (the approval machinery finds and closes its call in the old day); then the day goes too.
    await prisma.approvalRequest.update({ where: { id: held.approval.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    await expireApprovals()
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: held.record.id } })).outcome).toBe('expired')
    const later = await maintainCallPartitions({ retentionDays: 30 })
    expect(later).toMatchObject({ dropped: [partitionOf(days.d40)], kept: [] })
    expect(await left('d29')).toBe(3)
  })
})

describe('a call whose day has no partition yet', () => {
  it("is recorded by the gateway's writer, which creates the day", async () => {
    const at = today() + 20 * DAY_MS + 5000
    expect(await partitions()).not.toContain(partitionOf(at))
    const record = callAt(at, { channel: 'mcp' })
    await recordCall(record)
    expect(await partitionHolding(record.id)).toBe(partitionOf(at))
  })
})

describe('across a UTC midnight', () => {
  it('a repeat with the idempotency key of a call made before midnight gets its answer, and runs nothing', async () => {
    const first = await restCall('tickets.create', { arguments: { subject: 'Across midnight', body: 'b' } })
    expect(first.status, first.text).toBe(200)
    const ran = world.rest.hits.get('/tickets')
    // The first call was made a moment before today's midnight: its row moves to yesterday's partition.
    const beforeMidnight = new Date(today() - 100)
    await prisma.toolCall.updateMany({ where: { id: first.json.callId }, data: { startedAt: beforeMidnight } })
    await prisma.gatewayIdempotency.updateMany({ where: { callId: first.json.callId }, data: { createdAt: beforeMidnight } })
    expect(await partitionHolding(first.json.callId)).toBe(partitionOf(beforeMidnight))

    const repeat = await restCall('tickets.create', { arguments: { subject: 'Across midnight', body: 'b' } })
    expect(repeat.status, repeat.text).toBe(200)
    expect(repeat.json.result).toEqual(first.json.result)
    expect(world.rest.hits.get('/tickets')).toBe(ran)
    // The answer names the first call; the repeat is recorded as a call of its own, today.
    expect(repeat.json.callId).toBe(first.json.callId)
    const deduplicated = await prisma.toolCall.findFirstOrThrow({
      where: { toolId: 'tickets.create', outcome: 'deduplicated' },
      orderBy: { startedAt: 'desc' },
    })
    expect(await partitionHolding(deduplicated.id)).toBe(partitionOf(Date.now()))
    const read = await call(statsRoutes.call, `/api/v1/calls/${first.json.callId}`, { params: { id: first.json.callId } })
    expect(read.status).toBe(200)
    expect(read.json.startedAt).toBe(beforeMidnight.toISOString())
  })

  it('a call that waited for approval since before midnight is approved, and its row in yesterday is updated', async () => {
    const { record, approval } = await pendingCallAt(today() - 50)
    const approved = await call(approveApi.POST, `/api/v1/approvals/${approval.id}/approve`, { method: 'POST', body: {}, params: { id: approval.id } })
    expect(approved.status, approved.text).toBe(200)
    expect(await partitionHolding(record.id)).toBe(partitionOf(today() - 50))
    expect((await prisma.toolCall.findFirstOrThrow({ where: { id: record.id } })).outcome).toBe('approved')
  })
})

describe('the failure view across days', () => {
  it("lists a tool's latest failures newest first whichever day (partition) they are in", async () => {
    const key = 'Tool/default/ledger.reconcile'
    const failed = (at: number) => callAt(at, { toolId: 'ledger.reconcile', toolKey: key, outcome: 'failed', errorCode: 'upstream_status', errorMessage: 'no' })
    const calls = [failed(today() - 2 * DAY_MS + 1000), failed(today() - 1), failed(today() + 1), failed(Date.now() - 1000)]
    await insertCalls(calls)
    const res = await call(statsRoutes.toolFailures, `/api/v1/stats/tool-failures?key=${encodeURIComponent(key)}`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.recent.map((r: { id: string }) => r.id)).toEqual(calls.map((c) => c.id).reverse())
  })

  it("pages a tool's failed calls in the explorer from a partial index every day partition has, those created later too", async () => {
    const failed = (at: number) =>
      callAt(at, { toolId: 'ledger.settle', toolKey: 'Tool/default/ledger.settle', outcome: 'failed', errorCode: 'upstream_status', errorMessage: 'no' })
    const calls = [failed(today() - DAY_MS + 5), callAt(today() - 5, { toolId: 'ledger.settle', toolKey: 'Tool/default/ledger.settle' }), failed(today() + 5)]
    await insertCalls(calls)
    const res = await call(statsRoutes.calls, '/api/v1/calls?tool=ledger.settle&outcome=failed&limit=1')
    expect(res.status, res.text).toBe(200)
    expect(res.json.items.map((r: { id: string }) => r.id)).toEqual([calls[2].id])
    const next = await call(statsRoutes.calls, `/api/v1/calls?tool=ledger.settle&outcome=failed&limit=1&cursor=${res.json.nextCursor}`)
    expect(next.json.items.map((r: { id: string }) => r.id)).toEqual([calls[0].id])

    await maintainCallPartitions({ now: new Date(today() + 200 * DAY_MS), retentionDays: 3650 })
    const indexed = await prisma.$queryRaw<Array<{ name: string }>>`
      SELECT tablename AS name FROM pg_indexes
      WHERE indexdef LIKE '%("toolId", "startedAt" DESC) WHERE (outcome = ''failed''::text)'`
    expect(indexed.map((r) => r.name)).toEqual(expect.arrayContaining([...(await partitions()), 'ToolCall']))
  })
})

describe('the export', () => {
  it('streams every call of the range as NDJSON, oldest first, as redacted as stored', async () => {
    const since = new Date(Date.now() - 60_000)
    const secretCall = await restCall('tickets.create', { arguments: { subject: 'Exported', body: BODY_VALUE, customer_email: EMAIL_VALUE } })
    expect(secretCall.status, secretCall.text).toBe(200)
    // More than a page, all at the same instant: the keyset must not lose or repeat ties.
    const at = Date.now() - 30_000
    await insertCalls(Array.from({ length: 2100 }, () => callAt(at)))
    const until = new Date(Date.now() + 1000)

    const url = `/api/v1/calls/export?since=${encodeURIComponent(since.toISOString())}&until=${encodeURIComponent(until.toISOString())}`
    const res = await call(statsRoutes.exportCalls, url)
    expect(res.status, res.text).toBe(200)
    expect(res.contentType).toMatch(/^application\/x-ndjson/)
    const lines = res.text.trimEnd().split('\n')
    const records = lines.map((l) => JSON.parse(l) as { id: string; startedAt: string; args: unknown })
    const stored = await prisma.toolCall.findMany({ where: { startedAt: { gte: since, lt: until } }, orderBy: [{ startedAt: 'asc' }, { id: 'asc' }] })
    expect(records.map((r) => r.id)).toEqual(stored.map((s) => s.id))
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length)
    expect(records).toEqual(JSON.parse(JSON.stringify(stored)))

    const exported = records.find((r) => r.id === secretCall.json.callId)!
    expect(exported.args).toEqual({ subject: 'Exported', body: '[REDACTED]', customer_email: '[REDACTED]' })
    for (const value of [SECRET, BODY_VALUE, EMAIL_VALUE]) expect(res.text).not.toContain(value)

    const cli = await runCli(['calls', 'export', '--since', since.toISOString(), '--until', until.toISOString(), '--file', 'calls.ndjson'], {
      home,
      url: api.url,
      token: await testAdminToken(),
    })
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stderr).toContain(`${records.length} calls written to calls.ndjson`)
    expect(fs.readFileSync(path.join(home, 'calls.ndjson'), 'utf8')).toBe(res.text)
  })

  it('names the field of a range it cannot export', async () => {
    const missing = await call(statsRoutes.exportCalls, '/api/v1/calls/export')
    expect(missing.status).toBe(400)
    expect(missing.json.errors.map((e: { field: string }) => e.field)).toContain('since')
    const backwards = await call(statsRoutes.exportCalls, '/api/v1/calls/export?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z')
    expect(backwards.status).toBe(400)
    expect(backwards.json.errors).toEqual([expect.objectContaining({ field: 'until', message: 'must be after since' })])
    const cli = await runCli(['calls', 'export', '--since', 'last tuesday'], { home, url: api.url, token: await testAdminToken() })
    expect(cli.code).toBe(2)
    expect(cli.stderr).toContain('--since takes a time with its offset')
  })
})
