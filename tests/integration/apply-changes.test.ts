// Apply says what changes (README, "GitOps"): each document's field-level changes against what is
// stored, in dry runs and real applies alike; Secrets' values never appear. And prune: what carries
// the selector's labels but is not in the manifest is deleted in the same transaction, after a dry
// run has listed it; a selector that would match almost everything, and deleting what the caller may
// not change, are refused.
import { beforeEach, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { call, type Caller, countRows, resetDatabase, yaml } from './helpers'
import { sessionCookie, tokenFor } from './access-fixtures'
import { labelledTool, type LabelledToolOptions } from '../support/labelled-tool'

const apply = (body: string, query = '', as: Caller = 'admin') => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body, as })

const tool = (name: string, options: Partial<LabelledToolOptions> = {}) =>
  labelledTool(name, { namespace: 'team', labels: 'app: gitops', description: 'Echo', ...options })

beforeEach(resetDatabase)

describe('changes', () => {
  it('are the field-level diff of an updated document, empty for created and unchanged ones, in dry runs and real applies', async () => {
    const first = await apply(tool('acme.echo', { extra: '  safety: { allowedAgents: [a, b] }\n' }))
    expect(first.json.results[0]).toMatchObject({ action: 'created', changes: [] })

    const next = tool('acme.echo', {
      labels: 'app: gitops, "app.kubernetes.io/name": echo',
      description: 'Echo, louder',
      extra: '  safety: { allowedAgents: [a, c] }\n',
    })
    for (const query of ['?dryRun=true', '']) {
      const res = await apply(next, query)
      expect(res.status, res.text).toBe(200)
      expect(res.json.results[0].action).toBe('updated')
      expect(res.json.results[0].changes).toEqual([
        { path: 'metadata.labels["app.kubernetes.io/name"]', after: 'echo' },
        { path: 'spec.description', before: 'Echo', after: 'Echo, louder' },
        { path: 'spec.safety.allowedAgents[1]', before: 'b', after: 'c' },
      ])
    }
    const again = await apply(next)
    expect(again.json.results[0]).toMatchObject({ action: 'unchanged', changes: [] })
  })

  it('of a Secret name its keys and type, never a value', async () => {
    const secret = (values: string, type = 'bearer') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: crm, namespace: team }
spec:
  type: ${type}
  stringData: { ${values} }
`
    await apply(secret('token: sk-live-first-value-1234, user: alice'))
    const res = await apply(secret('token: sk-live-second-value-5678, region: eu', 'opaque'), '?dryRun=true')
    expect(res.json.results[0].changes).toEqual([
      { path: 'spec.type', before: 'bearer', after: 'opaque' },
      { path: 'spec.data.region', after: '[secret]' },
      { path: 'spec.data.token', before: '[secret]', after: '[secret]' },
      { path: 'spec.data.user', before: '[secret]' },
    ])
    expect(res.text).not.toMatch(/sk-live|alice/)
    const same = await apply(secret('token: sk-live-first-value-1234, user: alice'), '?dryRun=true')
    expect(same.json.results[0]).toMatchObject({ action: 'unchanged', changes: [] })
  })
})

describe('prune', () => {
  async function seed() {
    const res = await apply(
      [
        tool('acme.one'),
        tool('acme.two'),
        tool('acme.three'),
        tool('acme.other', { labels: 'app: elsewhere' }),
        yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: old-bot, namespace: team, labels: { app: gitops } }
spec: {}
`,
      ].join('---\n'),
    )
    expect(res.status, res.text).toBe(200)
  }

  it('lists in a dry run, then deletes, what carries the labels but is not in the manifest', async () => {
    await seed()
    const manifest = [tool('acme.one'), tool('acme.two', { description: 'Two' })].join('---\n')
    const dry = await apply(manifest, `?dryRun=true&prune=${encodeURIComponent('app=gitops')}`)
    expect(dry.status, dry.text).toBe(200)
    expect(dry.json.summary).toEqual({ created: 0, updated: 1, unchanged: 1, deleted: 2 })
    const deleted = dry.json.results.filter((r: { action: string }) => r.action === 'deleted')
    expect(deleted).toEqual([
      expect.objectContaining({ index: null, kind: 'Tool', namespace: 'team', name: 'acme.three', changes: [], id: expect.any(String) }),
      expect.objectContaining({ index: null, kind: 'Agent', namespace: 'team', name: 'old-bot' }),
    ])
    expect(await countRows()).toMatchObject({ tools: 4, agents: 1 })
    expect(dry.json.impact).toMatchObject({ agentsChecked: 1, agentsResolved: 1, agentsAffected: 1, agents: [{ name: 'old-bot', id: expect.any(String) }] })

    const since = new Date()
    const real = await apply(manifest, `?prune=${encodeURIComponent('app=gitops')}`)
    expect(real.json.summary).toEqual(dry.json.summary)
    expect(real.json.impact).toBeUndefined()
    expect(await prisma.tool.findMany({ select: { name: true }, orderBy: { name: 'asc' } })).toEqual([
      { name: 'acme.one' },
      { name: 'acme.other' },
      { name: 'acme.two' },
    ])
    expect(await prisma.agent.count()).toBe(0)
    const events = await prisma.auditEvent.findMany({ where: { action: 'resource.deleted', at: { gte: since } }, orderBy: { resource: 'asc' } })
    expect(events.map((e) => [e.kind, e.resource, (e.detail as { prune?: string }).prune])).toEqual(
      [
        ['Tool', 'acme.three', 'app=gitops'],
        ['Agent', 'old-bot', 'app=gitops'],
      ].sort((a, b) => a[1]!.localeCompare(b[1]!)),
    )

    const again = await apply(manifest, `?prune=${encodeURIComponent('app=gitops')}`)
    expect(again.json.summary).toEqual({ created: 0, updated: 0, unchanged: 2, deleted: 0 })
  })

  it('refuses a selector that requires no label, a malformed one, and deleting what the caller may not change', async () => {
    await seed()
    const negative = await apply(tool('acme.one'), `?prune=${encodeURIComponent('!nothing,app!=x')}`)
    expect(negative.status).toBe(422)
    expect(negative.json.errors[0]).toMatchObject({ field: 'prune', rule: 'prune-selector' })
    const empty = await apply(tool('acme.one'), '?prune=')
    expect(empty.status).toBe(422)
    expect(empty.json.errors[0]).toMatchObject({ field: 'prune', rule: 'prune-selector' })
    const malformed = await apply(tool('acme.one'), `?prune=${encodeURIComponent('app in gitops')}`)
    expect(malformed.status).toBe(400)
    expect(malformed.json.errors[0]).toMatchObject({ field: 'prune', rule: 'label-selector' })
    const hostile = await apply(tool('acme.one'), '?prune=app%3D%00')
    expect(hostile.status).toBe(422)
    expect(hostile.json.errors[0]).toMatchObject({ field: 'prune', rule: 'storable-text' })

    await apply(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: crm, namespace: team, labels: { app: gitops } }
spec: { stringData: { token: abcdefgh } }
`)
    const operator = { token: (await tokenFor(await sessionCookie('operator'), ['write'])).token }
    for (const query of ['?dryRun=true&', '?']) {
      const refused = await apply(tool('acme.one'), `${query}prune=${encodeURIComponent('app=gitops')}`, operator)
      expect(refused.status).toBe(403)
      expect(refused.json.errors).toContainEqual(expect.objectContaining({ kind: 'Secret', name: 'crm', field: 'prune', rule: 'admin-only-kind' }))
    }
    expect(await countRows()).toMatchObject({ tools: 4, agents: 1, secrets: 1 })
  })
})
