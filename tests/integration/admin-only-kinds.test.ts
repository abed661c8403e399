// SideEffectPolicies and Secrets are changed by admins only, on every path that writes them: apply
// (alone or mixed with other kinds, dry run too), the resources API, secret rotation, and the policy
// defaults card's save (an apply of one JSON document). Reads stay open to every role.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { secretRoutes } from '@/lib/api/secret-routes'
import { prisma } from '@/lib/db'
import { call, type Caller, countRows, resetDatabase, yaml } from './helpers'
import { sessionCookie, tokenFor } from './access-fixtures'

const NS = 'adminonly'
const secrets = resourceRoutes('Secret')
const policies = resourceRoutes('SideEffectPolicy')
const tools = resourceRoutes('Tool')

const secretDoc = (name = 'crm-token', value = 'first-value') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: ${name}, namespace: ${NS} }
spec: { type: bearer, stringData: { token: ${value} } }
`
const policyDoc = (level = 'financial', requiresApproval = true) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: ${level}, namespace: ${NS} }
spec: { level: ${level}, requiresApproval: ${requiresApproval} }
`
const toolDoc = (name = 'acme.echo') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: ${NS} }
spec:
  type: function
  description: Echo the input back.
  inputSchema: { type: object }
`
const agentDoc = (name = 'helper') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: ${NS} }
spec: {}
`
const manifest = (...docs: string[]) => docs.join('---\n')
const apply = (body: string, as: Caller, query = '', contentType?: string) =>
  call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body, as, contentType })

let operator: Caller
let operatorToken: Caller
let admin: Caller
let adminWriteToken: Caller
let viewer: Caller

beforeAll(async () => {
  const operatorCookie = await sessionCookie('operator', 'adminonly')
  operator = { cookie: operatorCookie }
  operatorToken = { token: (await tokenFor(operatorCookie, ['read', 'write'])).token }
  const adminCookie = await sessionCookie('admin', 'adminonly')
  admin = { cookie: adminCookie }
  adminWriteToken = { token: (await tokenFor(adminCookie, ['read', 'write'])).token }
  viewer = { cookie: await sessionCookie('viewer', 'adminonly') }
})

beforeEach(resetDatabase)

function expectRefusedAsAdminOnly(res: { status: number; contentType: string | null; json: { detail: string; errors?: unknown[] } }, kind: string) {
  expect(res.status).toBe(403)
  expect(res.contentType).toBe('application/problem+json')
  expect(res.json.detail).toContain(`${kind} resources can be changed by admins only`)
  expect(res.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ kind, field: 'kind', rule: 'admin-only-kind' })]))
}

describe('apply', () => {
  it('refuses an operator a Secret or a SideEffectPolicy, by session and by token, dry run included', async () => {
    for (const as of [operator, operatorToken]) {
      expectRefusedAsAdminOnly(await apply(secretDoc(), as), 'Secret')
      expectRefusedAsAdminOnly(await apply(policyDoc(), as), 'SideEffectPolicy')
      expectRefusedAsAdminOnly(await apply(policyDoc(), as, '?dryRun=true'), 'SideEffectPolicy')
    }
    expect(await countRows()).toMatchObject({ secrets: 0, policies: 0 })
  })

  it('refuses an admin token without the admin scope: the token, not only the person, must be allowed', async () => {
    expectRefusedAsAdminOnly(await apply(secretDoc(), adminWriteToken), 'Secret')
    expect((await apply(toolDoc(), adminWriteToken)).status).toBe(200)
  })

  it('refuses a mixed manifest from an operator as a whole, naming each admin-only document, and writes nothing', async () => {
    const before = await prisma.auditEvent.count({ where: { namespace: NS } })
    const res = await apply(manifest(toolDoc(), secretDoc(), agentDoc(), policyDoc('privileged')), operator)
    expect(res.status).toBe(403)
    expect(res.json.detail).toBe('Secret and SideEffectPolicy resources can be changed by admins only (documents 1, 3); nothing was written')
    expect(res.json.errors).toEqual([
      // Each at its document's `kind:` line in the manifest.
      {
        document: 1,
        kind: 'Secret',
        name: 'crm-token',
        field: 'kind',
        rule: 'admin-only-kind',
        message: 'Secret resources can be changed by admins only',
        line: 10,
        column: 7,
      },
      {
        document: 3,
        kind: 'SideEffectPolicy',
        name: 'privileged',
        field: 'kind',
        rule: 'admin-only-kind',
        message: 'SideEffectPolicy resources can be changed by admins only',
        line: 20,
        column: 7,
      },
    ])
    // All or nothing, as for invalid documents: the Tool and the Agent were not written either.
    expect(await countRows()).toMatchObject({ tools: 0, agents: 0, secrets: 0, policies: 0 })
    // The audit log is append-only (earlier tests' events stay): nothing was added to it.
    expect(await prisma.auditEvent.count({ where: { namespace: NS } })).toBe(before)
  })

  it('lists the other documents\u2019 validation errors after the refusals, so one round of fixes is enough', async () => {
    const res = await apply(manifest(toolDoc('Not A Tool Id'), secretDoc()), operator)
    expect(res.status).toBe(403)
    expect(res.json.detail).toMatch(/^Secret resources can be changed by admins only \(document 1\); 1 validation error as well; nothing was written$/)
    expect(res.json.errors.map((e: { document: number; rule: string }) => [e.document, e.rule])).toEqual([
      [1, 'admin-only-kind'],
      [0, 'canonical-id'],
    ])
  })

  it('still lets an operator apply every other kind', async () => {
    const res = await apply(manifest(toolDoc(), agentDoc()), operator)
    expect(res.status, res.text).toBe(200)
    expect(res.json.summary).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 })
  })

  it('lets an admin apply the same mixed manifest', async () => {
    const res = await apply(manifest(toolDoc(), secretDoc(), agentDoc(), policyDoc('privileged')), admin)
    expect(res.status, res.text).toBe(200)
    expect(res.json.summary.created).toBe(4)
    expect(await countRows()).toMatchObject({ tools: 1, agents: 1, secrets: 1, policies: 1 })
  })

  it("refuses the policy defaults card's save (one JSON document) to an operator and takes it from an admin", async () => {
    const doc = JSON.stringify({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'SideEffectPolicy',
      metadata: { name: 'communication', namespace: NS },
      spec: { level: 'communication', requiresApproval: false, approvalExpirySeconds: 600 },
    })
    const refused = await apply(doc, operator, '', 'application/json')
    expectRefusedAsAdminOnly(refused, 'SideEffectPolicy')
    expect(refused.json.errors[0]).toMatchObject({ document: 0, name: 'communication' })
    const saved = await apply(doc, admin, '', 'application/json')
    expect(saved.status, saved.text).toBe(200)
    expect(await prisma.sideEffectPolicy.findFirstOrThrow({ where: { namespace: NS } })).toMatchObject({ level: 'communication' })
  })
})

describe('resources API and rotation', () => {
  it('refuses an operator every create, replace, delete and rotation of Secrets, and lets an admin do each', async () => {
    const body = { metadata: { name: 'crm-token', namespace: NS }, spec: { type: 'bearer', stringData: { token: 'v1' } } }
    expectRefusedAsAdminOnly(await call(secrets.create, '/api/v1/secrets', { method: 'POST', body, as: operator }), 'Secret')
    const created = await call(secrets.create, '/api/v1/secrets', { method: 'POST', body, as: admin })
    expect(created.status, created.text).toBe(201)
    const id = created.json.id as string
    const replaced = { ...body, spec: { type: 'bearer', stringData: { token: 'v2' } } }
    expectRefusedAsAdminOnly(await call(secrets.replace, `/api/v1/secrets/${id}`, { method: 'PUT', params: { id }, body: replaced, as: operator }), 'Secret')
    expect((await call(secrets.replace, `/api/v1/secrets/${id}`, { method: 'PUT', params: { id }, body: replaced, as: admin })).status).toBe(200)
    const rotation = { stringData: { token: 'v3' } }
    for (const as of [operator, operatorToken, adminWriteToken])
      expectRefusedAsAdminOnly(
        await call(secretRoutes.rotate, `/api/v1/secrets/${id}/rotate`, { method: 'POST', params: { id }, body: rotation, as }),
        'Secret',
      )
    const rotated = await call(secretRoutes.rotate, `/api/v1/secrets/${id}/rotate`, { method: 'POST', params: { id }, body: rotation, as: admin })
    expect(rotated.status, rotated.text).toBe(200)
    expect(rotated.json.metadata.generation).toBe(3)
    expectRefusedAsAdminOnly(await call(secrets.remove, `/api/v1/secrets/${id}`, { method: 'DELETE', params: { id }, as: operator }), 'Secret')
    expect(await prisma.secret.count()).toBe(1)
    expect((await call(secrets.remove, `/api/v1/secrets/${id}`, { method: 'DELETE', params: { id }, as: admin })).status).toBe(204)
    expect(await prisma.secret.count()).toBe(0)
  })

  it('refuses an operator every create, replace and delete of SideEffectPolicies, and lets an admin do each', async () => {
    const body = { metadata: { name: 'financial', namespace: NS }, spec: { level: 'financial', requiresApproval: true } }
    expectRefusedAsAdminOnly(await call(policies.create, '/api/v1/sideeffectpolicies', { method: 'POST', body, as: operatorToken }), 'SideEffectPolicy')
    const created = await call(policies.create, '/api/v1/sideeffectpolicies', { method: 'POST', body, as: admin })
    expect(created.status, created.text).toBe(201)
    const id = created.json.id as string
    const relaxed = { ...body, spec: { level: 'financial', requiresApproval: false } }
    expectRefusedAsAdminOnly(
      await call(policies.replace, `/api/v1/sideeffectpolicies/${id}`, { method: 'PUT', params: { id }, body: relaxed, as: operator }),
      'SideEffectPolicy',
    )
    expect((await prisma.sideEffectPolicy.findUniqueOrThrow({ where: { id } })).spec).toMatchObject({ requiresApproval: true })
    expect((await call(policies.replace, `/api/v1/sideeffectpolicies/${id}`, { method: 'PUT', params: { id }, body: relaxed, as: admin })).status).toBe(200)
    expectRefusedAsAdminOnly(
      await call(policies.remove, `/api/v1/sideeffectpolicies/${id}`, { method: 'DELETE', params: { id }, as: operator }),
      'SideEffectPolicy',
    )
    expect((await call(policies.remove, `/api/v1/sideeffectpolicies/${id}`, { method: 'DELETE', params: { id }, as: admin })).status).toBe(204)
  })

  it('keeps reads as they were: every role lists and gets Secrets (without values) and policies', async () => {
    expect((await apply(manifest(secretDoc('crm-token', 'UNMISTAKABLE-value-1234'), policyDoc()), admin)).status).toBe(200)
    for (const as of [viewer, operator, operatorToken]) {
      const listed = await call(secrets.list, `/api/v1/secrets?namespace=${NS}`, { as })
      expect(listed.status).toBe(200)
      expect(listed.json.items.map((s: { metadata: { name: string } }) => s.metadata.name)).toEqual(['crm-token'])
      expect(listed.text).not.toContain('UNMISTAKABLE-value-1234')
      const one = await call(secrets.get, `/api/v1/secrets/crm-token?namespace=${NS}`, { params: { id: 'crm-token' }, as })
      expect(one.status).toBe(200)
      expect(one.json.spec.keys).toEqual(['token'])
      const policy = await call(policies.get, `/api/v1/sideeffectpolicies/financial?namespace=${NS}`, { params: { id: 'financial' }, as })
      expect(policy.status).toBe(200)
      expect(policy.json.spec).toMatchObject({ level: 'financial', requiresApproval: true })
    }
    // Operators still write the other kinds through the same routes.
    expect(
      (
        await call(tools.create, '/api/v1/tools', {
          method: 'POST',
          body: { metadata: { name: 'acme.ok', namespace: NS }, spec: { type: 'function', description: 'ok', inputSchema: { type: 'object' } } },
          as: operator,
        })
      ).status,
    ).toBe(201)
  })
})
