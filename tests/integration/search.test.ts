// The global search behind the portal's Ctrl-K palette (GET /api/v1/search): resources by name, best
// matches first; waiting approvals by tool or agent; the latest calls of the tools and agents found,
// or one call by its id. Hostile queries (wildcards, oversized, unknown parameters) and who may ask.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { searchRoutes } from '@/lib/api/search-routes'
import { prisma } from '@/lib/db'
import { applyManifest, bareAgents, call, type Caller } from './helpers'
import { insertCalls } from './stats-fixtures'

// Names no other test file uses, so the hits are this file's.
const NS = 'srch'
const search = (query: string, as: Caller = 'admin') => call(searchRoutes.search, `/api/v1/search${query}`, { as })

interface Hit {
  kind: string
  id: string
  namespace: string
  name: string
}

let agentId: string
let callIds: string[]

beforeAll(async () => {
  const applied = await applyManifest(bareAgents(...['zqxrefund', 'billing-zqxrefund-helper', 'zqxrefunder', 'azqxrefund'].map((name) => `${NS}/${name}`)))
  agentId = applied.json.results.find((r: Hit) => r.name === 'zqxrefund').id
  await prisma.toolCall.deleteMany({ where: { agentId } })
  callIds = await insertCalls({ count: 3, tool: 'zqxpay.refund', agentId, outcome: 'succeeded' })
  await prisma.approvalRequest.deleteMany({ where: { toolId: 'zqxpay.refund' } })
  await prisma.approvalRequest.create({
    data: {
      callId: callIds[0],
      agentId,
      agentNamespace: NS,
      agentName: 'zqxrefund',
      toolId: 'zqxpay.refund',
      toolNamespace: 'zqxpay',
      level: 'financial',
      expiresAt: new Date(Date.now() + 3600_000),
    },
  })
})

describe('GET /api/v1/search', () => {
  it('lists resources best match first: the exact name, a prefix, after a separator, anywhere', async () => {
    const res = await search('?q=ZQXREFUND&limit=10')
    expect(res.status, res.text).toBe(200)
    const agents = (res.json.resources as Hit[]).filter((r) => r.kind === 'Agent' && r.namespace === NS).map((r) => r.name)
    expect(agents).toEqual(['zqxrefund', 'zqxrefunder', 'billing-zqxrefund-helper', 'azqxrefund'])
  })

  it('finds the waiting approvals of a tool and the latest calls of the agents found', async () => {
    const res = await search('?q=zqxrefund')
    expect(res.status, res.text).toBe(200)
    expect(res.json.approvals).toEqual([
      expect.objectContaining({ toolId: 'zqxpay.refund', status: 'pending', level: 'financial', agent: { id: agentId, namespace: NS, name: 'zqxrefund' } }),
    ])
    expect((res.json.calls as { id: string }[]).map((c) => c.id).sort()).toEqual([...callIds].sort())
  })

  it('finds the calls of a tool id that no resource names, newest first and at most limit', async () => {
    const res = await search('?q=zqxpay.refund&limit=2')
    expect(res.status, res.text).toBe(200)
    const calls = res.json.calls as { id: string; startedAt: string; toolId: string }[]
    expect(calls).toHaveLength(2)
    expect(calls.every((c) => c.toolId === 'zqxpay.refund')).toBe(true)
    expect(Date.parse(calls[0].startedAt)).toBeGreaterThanOrEqual(Date.parse(calls[1].startedAt))
  })

  it('finds one call and its approval by id, and nothing for an unknown uuid', async () => {
    const res = await search(`?q=${callIds[0]}`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.calls.map((c: { id: string }) => c.id)).toEqual([callIds[0]])
    expect(res.json.approvals).toHaveLength(1)
    const none = await search(`?q=${randomUUID()}`)
    expect(none.status).toBe(200)
    expect(none.json.calls).toEqual([])
    expect(none.json.approvals).toEqual([])
  })

  it('takes SQL wildcards and quotes as text, not patterns', async () => {
    for (const q of ['%', '_', "zqx'refund", 'zqx%fund', '\\']) {
      const res = await search(`?q=${encodeURIComponent(q)}`)
      expect(res.status, `${q}: ${res.text}`).toBe(200)
      expect(
        (res.json.resources as Hit[]).filter((r) => r.namespace === NS),
        q,
      ).toEqual([])
    }
  })

  it('refuses an empty, oversized or unstorable query, a bad limit and unknown parameters, naming the field', async () => {
    const cases: [string, string][] = [
      ['', 'q'],
      ['?q=', 'q'],
      ['?q=%20%20', 'q'],
      [`?q=${'a'.repeat(201)}`, 'q'],
      ['?q=a&limit=0', 'limit'],
      ['?q=a&limit=21', 'limit'],
      ['?q=a&limit=two', 'limit'],
      ['?q=a&kind=Agent', 'kind'],
    ]
    for (const [query, field] of cases) {
      const res = await search(query)
      expect(res.status, `${query}: ${res.text}`).toBe(400)
      expect(res.contentType, query).toContain('application/problem+json')
      expect(
        res.json.errors.map((e: { field: string }) => e.field),
        query,
      ).toEqual([field])
    }
    const nul = await search('?q=zqx%00refund')
    expect(nul.status, nul.text).toBe(422)
    expect(nul.json.errors).toEqual([expect.objectContaining({ field: 'q', rule: 'storable-text' })])
  })

  it('answers only the signed in', async () => {
    expect((await search('?q=zqxrefund', 'none')).status).toBe(401)
  })
})
