// Agent credentials across all agents (GET /api/v1/agent-credentials): filters by state, agent and
// text, keyset pages, who may read and who may issue or revoke, and never a token or hash in an answer.
import { beforeAll, describe, expect, it } from 'vitest'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { prisma } from '@/lib/db'
import { applyManifest, bareAgents, call, type Caller } from './helpers'
import { ROLE_LIST, sessionCookie } from './access-fixtures'

const R = agentCredentialRoutes
// Every agent of this file lives in these namespaces, so `q=credlist` sees only this file's credentials.
const NS = 'credlist'
const NS2 = 'credlist2'

interface Listed {
  id: string
  agentId: string
  name: string
  state: string
  createdBy: string | null
  agent: { namespace: string; name: string }
}

const list = (query: string, as: Caller = 'admin') => call(R.listAllCredentials, `/api/v1/agent-credentials${query}`, { as })
const names = (res: { json: { items: Listed[] } }) => res.json.items.map((c) => c.name).sort()

async function issue(agentId: string, name: string, as: Caller = 'admin') {
  return call(R.createCredential, `/api/v1/agents/${agentId}/credentials`, { method: 'POST', params: { id: agentId }, body: { name }, as })
}

const agents: Record<string, string> = {}
const tokens: string[] = []
let adminCookie: string

beforeAll(async () => {
  const applied = await applyManifest(bareAgents(`${NS}/alpha`, `${NS}/beta`, `${NS2}/alpha`))
  for (const r of applied.json.results) agents[`${r.namespace}/${r.name}`] = r.id
  // A rerun against the same database starts from no credentials for these agents.
  await prisma.agentCredential.deleteMany({ where: { agentId: { in: Object.values(agents) } } })

  adminCookie = await sessionCookie('admin', 'credlist')
  const alpha = agents[`${NS}/alpha`]
  for (const name of ['ci-one', 'ci-two', 'ci-expired', 'ci-revoked']) {
    const res = await issue(alpha, name)
    expect(res.status, res.text).toBe(201)
    tokens.push(res.json.token)
  }
  for (const [agent, name, as] of [
    [`${NS}/beta`, 'beta-main', { cookie: adminCookie }],
    [`${NS2}/alpha`, 'other-alpha', 'admin'],
  ] as const) {
    const res = await issue(agents[agent], name, as)
    expect(res.status, res.text).toBe(201)
    tokens.push(res.json.token)
  }
  const expired = await prisma.agentCredential.findFirstOrThrow({ where: { agentId: alpha, name: 'ci-expired' } })
  await prisma.agentCredential.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } })
  const revoked = await prisma.agentCredential.findFirstOrThrow({ where: { agentId: alpha, name: 'ci-revoked' } })
  const res = await call(R.revokeCredential, `/api/v1/agents/${alpha}/credentials/${revoked.id}/revoke`, {
    method: 'POST',
    params: { id: alpha, credentialId: revoked.id },
  })
  expect(res.status, res.text).toBe(200)
})

describe('GET /api/v1/agent-credentials', () => {
  it('lists credentials of every agent, newest first, with their agent and never a token or hash', async () => {
    const res = await list(`?q=${NS}`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.total).toBe(6)
    expect(res.json.nextCursor).toBeNull()
    expect(names(res)).toEqual(['beta-main', 'ci-expired', 'ci-one', 'ci-revoked', 'ci-two', 'other-alpha'])
    const times = res.json.items.map((c: { createdAt: string }) => c.createdAt)
    expect(times).toEqual([...times].sort().reverse())
    const beta = res.json.items.find((c: Listed) => c.name === 'beta-main')
    expect(beta).toMatchObject({
      agentId: agents[`${NS}/beta`],
      agent: { namespace: NS, name: 'beta' },
      state: 'active',
      createdBy: expect.stringContaining('admin.credlist@'),
    })
    expect(Object.keys(beta).sort()).toEqual([
      'agent',
      'agentId',
      'createdAt',
      'createdBy',
      'expiresAt',
      'hint',
      'id',
      'lastUsedAt',
      'name',
      'revokedAt',
      'state',
    ])
    const hashes = (await prisma.agentCredential.findMany({ where: { agentId: { in: Object.values(agents) } }, select: { hash: true } })).map((r) => r.hash)
    expect(hashes).toHaveLength(6)
    for (const secret of [...tokens, ...hashes]) expect(res.text).not.toContain(secret)
  })

  it('filters by state: active, expired, revoked, all', async () => {
    expect(names(await list(`?q=${NS}&status=active`))).toEqual(['beta-main', 'ci-one', 'ci-two', 'other-alpha'])
    expect(names(await list(`?q=${NS}&status=expired`))).toEqual(['ci-expired'])
    expect(names(await list(`?q=${NS}&status=revoked`))).toEqual(['ci-revoked'])
    expect((await list(`?q=${NS}&status=all`)).json.total).toBe(6)
    const expired = (await list(`?q=${NS}&status=expired`)).json.items[0]
    expect(expired.state).toBe('expired')
    const bad = await list('?status=lapsed')
    expect(bad.status).toBe(400)
    expect(bad.contentType).toBe('application/problem+json')
    expect(bad.json.errors[0]).toMatchObject({ field: 'status' })
  })

  it('filters by agent: id, namespace/name, or a name in any namespace', async () => {
    expect(names(await list(`?agent=${agents[`${NS}/beta`]}`))).toEqual(['beta-main'])
    expect(names(await list(`?agent=${NS}/alpha`))).toEqual(['ci-expired', 'ci-one', 'ci-revoked', 'ci-two'])
    expect(names(await list(`?agent=${NS2}/alpha`))).toEqual(['other-alpha'])
    expect(names(await list(`?agent=alpha&q=${NS}`))).toEqual(['ci-expired', 'ci-one', 'ci-revoked', 'ci-two', 'other-alpha'])
    expect(names(await list(`?agent=${NS}/alpha&status=active`))).toEqual(['ci-one', 'ci-two'])
    const none = await list(`?agent=${NS}/nobody`)
    expect(none.status).toBe(200)
    expect(none.json).toMatchObject({ items: [], total: 0, nextCursor: null })
  })

  it('searches names, creators and agents case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(names(await list(`?q=CI-T`))).toEqual(['ci-two'])
    expect(names(await list(`?q=${NS}/BETA`))).toEqual(['beta-main'])
    expect(names(await list(`?q=admin.credlist`))).toEqual(['beta-main'])
    expect((await list(`?q=${encodeURIComponent('%')}`)).json.total).toBe(0)
    expect((await list(`?q=ci${encodeURIComponent('_')}one`)).json.total).toBe(0)
  })

  it('pages with limit and cursor: every credential once, in the same order as one page', async () => {
    const whole = (await list(`?q=${NS}&limit=100`)).json.items.map((c: Listed) => c.id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await list(`?q=${NS}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(res.status, res.text).toBe(200)
      expect(res.json.total).toBe(6)
      seen.push(...res.json.items.map((c: Listed) => c.id))
      cursor = res.json.nextCursor
      pages++
    } while (cursor && pages < 10)
    expect(pages).toBe(2)
    expect(seen).toEqual(whole)

    const badCursor = await list('?cursor=not-a-cursor')
    expect(badCursor.status).toBe(400)
    expect(badCursor.json.errors[0]).toMatchObject({ field: 'cursor', rule: 'cursor' })
    // A well-formed cursor of another list (resource lists hold names, not times) is refused too.
    const foreign = Buffer.from(JSON.stringify(['default', 'alpha', 'x'])).toString('base64url')
    expect((await list(`?cursor=${foreign}`)).status).toBe(400)
    for (const limit of ['0', '501', 'many']) {
      const res = await list(`?limit=${limit}`)
      expect(res.status, limit).toBe(400)
      expect(res.json.errors[0]).toMatchObject({ field: 'limit' })
    }
  })
})

describe('who may see and change agent credentials', () => {
  it('every role reads the list; nobody without credentials does, nor an agent with its gateway token', async () => {
    for (const role of ROLE_LIST) {
      const res = await list(`?q=${NS}`, { cookie: await sessionCookie(role, 'credlist') })
      expect(res.status, role).toBe(200)
      expect(res.json.total, role).toBe(6)
    }
    const anonymous = await list('', 'none')
    expect(anonymous.status).toBe(401)
    expect(anonymous.contentType).toBe('application/problem+json')
    const agent = await list('', { token: tokens[0] })
    expect(agent.status).toBe(401)
  })

  it('only admins issue and revoke: other roles get 403 problem+json and nothing changes', async () => {
    const beta = agents[`${NS}/beta`]
    const target = await prisma.agentCredential.findFirstOrThrow({ where: { agentId: beta, name: 'beta-main' } })
    for (const role of ROLE_LIST.filter((r) => r !== 'admin')) {
      const cookie = await sessionCookie(role, 'credlist')
      const issued = await issue(beta, `by-${role}`, { cookie })
      expect(issued.status, role).toBe(403)
      expect(issued.contentType).toBe('application/problem+json')
      const revoked = await call(R.revokeCredential, `/api/v1/agents/${beta}/credentials/${target.id}/revoke`, {
        method: 'POST',
        params: { id: beta, credentialId: target.id },
        as: { cookie },
      })
      expect(revoked.status, role).toBe(403)
    }
    expect(await prisma.agentCredential.count({ where: { agentId: beta } })).toBe(1)
    expect((await prisma.agentCredential.findUniqueOrThrow({ where: { id: target.id } })).revokedAt).toBeNull()
  })
})

describe('issuing a credential', () => {
  const create = (body: unknown) => {
    const id = agents[`${NS2}/alpha`]
    return call(R.createCredential, `/api/v1/agents/${id}/credentials`, { method: 'POST', params: { id }, body })
  }
  const days = (iso: string) => (new Date(iso).getTime() - Date.now()) / 86_400_000

  it('expires in 90 days unless told otherwise, like API tokens; null asks for one that never expires', async () => {
    const byDefault = await create({ name: 'default-expiry' })
    expect(byDefault.status, byDefault.text).toBe(201)
    expect(days(byDefault.json.expiresAt)).toBeGreaterThan(89.9)
    expect(days(byDefault.json.expiresAt)).toBeLessThanOrEqual(90)
    const week = await create({ name: 'week', expiresInDays: 7 })
    expect(days(week.json.expiresAt)).toBeGreaterThan(6.9)
    const never = await create({ name: 'never', expiresInDays: null })
    expect(never.status, never.text).toBe(201)
    expect(never.json.expiresAt).toBeNull()
    const stored = await prisma.agentCredential.findUniqueOrThrow({ where: { id: byDefault.json.id } })
    expect(stored.expiresAt!.toISOString()).toBe(byDefault.json.expiresAt)
  })

  it('refuses an expiry that is not a whole number of days from 1 to 3650, naming the field', async () => {
    for (const expiresInDays of [0, -1, 3651, 1.5, '90', true, {}, 1e308]) {
      const res = await create({ name: 'bad', expiresInDays })
      expect(res.status, JSON.stringify(expiresInDays)).toBe(422)
      const fields = new Set(res.json.errors.map((e: { field: string }) => e.field))
      expect([...fields]).toEqual(['expiresInDays'])
    }
  })
})
