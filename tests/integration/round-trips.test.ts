// GET → apply round trips (README, "GitOps"): what the API returns for any resource of any kind, as
// JSON or as YAML, one by one or as a page, applies again unchanged; so do `kind: List` documents as
// kubectl writes them and Kubernetes-style Secrets. Only the fields the server sets are ignored, by
// name: any other field is still refused as unknown.
import { parse as parseYaml, stringify } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { KIND_DEFINITIONS, KINDS, type Kind } from '@/lib/manifests/kinds'
import { SERVER_SET_FIELDS } from '@/lib/manifests/input-forms'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { openSecretValues } from '@/lib/secrets/encryption'
import { call, resetDatabase } from './helpers'

const apply = (body: string, contentType = 'application/yaml', query = '') => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body, contentType })
const asYaml = { accept: 'application/yaml' }

type Applied = { status: number; json: { results: { kind: string; name: string; action: string }[]; summary: Record<string, number> }; text: string }

function expectAllUnchanged(res: Applied, count: number) {
  expect(res.status, res.text).toBe(200)
  expect(res.json.results).toHaveLength(count)
  const changed = res.json.results.filter((r) => r.action !== 'unchanged')
  expect(changed, JSON.stringify(changed)).toEqual([])
}

async function pageOf(kind: Kind, headers: Record<string, string> = {}) {
  return call(resourceRoutes(kind).list, `/api/v1/${KIND_DEFINITIONS[kind].plural}?limit=500`, { headers })
}

beforeAll(async () => {
  await resetDatabase()
  expect((await seedDemoFleet()).seeded).toBe(true)
})

describe('GET → apply, every kind of the demo fleet', () => {
  for (const kind of KINDS) {
    it(`${kind}: each resource's JSON and YAML answers apply again unchanged, and so do its pages`, async () => {
      const page = await pageOf(kind)
      expect(page.status).toBe(200)
      const items = page.json.items as { id: string; metadata: { name: string } }[]
      expect(items.length, `the demo fleet has ${kind} resources`).toBeGreaterThan(0)
      for (const item of items) {
        const json = await call(resourceRoutes(kind).get, `/api/v1/x/${item.id}`, { params: { id: item.id } })
        expect(json.status).toBe(200)
        if (kind === 'Agent' || kind === 'Unit') expect(json.json.effectiveTools.length).toBeGreaterThan(0)
        expectAllUnchanged(await apply(json.text, 'application/json'), 1)

        const yaml = await call(resourceRoutes(kind).get, `/api/v1/x/${item.id}`, { params: { id: item.id }, headers: asYaml })
        expect(yaml.status).toBe(200)
        expect(yaml.contentType).toMatch(/^application\/yaml/)
        expect(parseYaml(yaml.text)).toEqual(json.json)
        expectAllUnchanged(await apply(yaml.text), 1)
      }
      expectAllUnchanged(await apply(page.text, 'application/json'), items.length)
      const yamlPage = await pageOf(kind, asYaml)
      expect(yamlPage.contentType).toMatch(/^application\/yaml/)
      expectAllUnchanged(await apply(yamlPage.text), items.length)
    })
  }

  it('a kubectl-style List of every kind, with Kubernetes metadata, applies unchanged', async () => {
    const items: unknown[] = []
    for (const kind of KINDS) items.push(...(await pageOf(kind)).json.items)
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: items.map((item) => {
        const i = item as { metadata: Record<string, unknown> }
        return {
          ...i,
          metadata: {
            ...i.metadata,
            uid: '4f1c…',
            resourceVersion: '12345',
            creationTimestamp: '2026-11-24T10:00:00Z',
            managedFields: [{ manager: 'kubectl', operation: 'Update' }],
          },
        }
      }),
    }
    expectAllUnchanged(await apply(stringify(list)), items.length)
    expectAllUnchanged(await apply(JSON.stringify(list), 'application/json'), items.length)
    // Lists sit beside other documents, and count as their items.
    const more = `${stringify({ ...list, items: list.items.slice(0, 2) })}---\n${stringify(list.items[2])}`
    expectAllUnchanged(await apply(more), 3)
  })
})

describe('what is still refused', () => {
  const tool = {
    apiVersion: 'toolroom.dev/v1alpha1',
    kind: 'Tool',
    metadata: { name: 'acme.echo', namespace: 'rt' },
    spec: { type: 'function', description: 'Echo', inputSchema: { type: 'object' } },
  }

  it('ignores exactly the named server-set fields; any other field is an unknown field', async () => {
    const serverSet = {
      ...tool,
      ...Object.fromEntries(SERVER_SET_FIELDS.topLevel.map((f) => [f, { anything: 'at all' }])),
      metadata: { ...tool.metadata, ...Object.fromEntries(SERVER_SET_FIELDS.metadata.map((f) => [f, 'x'])) },
    }
    const res = await apply(JSON.stringify(serverSet), 'application/json', '?dryRun=true')
    expect(res.status, res.text).toBe(200)

    for (const [doc, field] of [
      [{ ...tool, spec2: {} }, 'spec2'],
      [{ ...tool, metadata: { ...tool.metadata, selfLink: '/x' } }, 'metadata.selfLink'],
      [{ ...tool, metadata: { ...tool.metadata, finalizers: [] } }, 'metadata.finalizers'],
      [{ ...tool, spec: { ...tool.spec, id: 'x' } }, 'spec.id'],
      [{ ...tool, spec: { ...tool.spec, status: 'x' } }, 'spec.status'],
    ] as const) {
      const refused = await apply(JSON.stringify(doc), 'application/json', '?dryRun=true')
      expect(refused.status, field).toBe(422)
      expect(refused.json.errors).toContainEqual(expect.objectContaining({ field, rule: 'unknown-field' }))
    }
  })

  it('refuses a List with fields of its own and a page with anything beside items and nextCursor', async () => {
    const list = await apply(stringify({ apiVersion: 'v1', kind: 'List', items: [tool], extra: 1 }))
    expect(list.status).toBe(422)
    expect(list.json.errors[0]).toMatchObject({ field: 'extra', rule: 'unknown-field' })
    const page = await apply(JSON.stringify({ items: [tool], nextCursor: null, total: 1 }), 'application/json')
    expect(page.status).toBe(422)
    expect(page.json.errors).toContainEqual(expect.objectContaining({ rule: 'unknown-field', field: 'items' }))
    const nested = await apply(stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'List', items: [tool] }] }))
    expect(nested.status).toBe(422)
    expect(nested.json.errors).toContainEqual(expect.objectContaining({ field: 'kind', rule: 'unknown-kind' }))
  })
})

describe('Kubernetes-style Secrets', () => {
  const k8s = (values: string) => `apiVersion: v1
kind: Secret
metadata:
  name: crm-token
  namespace: rt
  uid: 0b1c
  resourceVersion: "42"
type: Opaque
${values}`

  it('are accepted as Toolroom Secrets, re-apply unchanged, and round-trip through GET as their keys', async () => {
    const created = await apply(k8s('stringData:\n  token: sk-live-aaaaaaaaaaaaaaaa\ndata:\n  user: YWxpY2U=\n'))
    expect(created.status, created.text).toBe(200)
    expect(created.json.results[0]).toMatchObject({ kind: 'Secret', action: 'created' })
    const row = await prisma.secret.findUniqueOrThrow({ where: { namespace_name: { namespace: 'rt', name: 'crm-token' } } })
    expect(row.apiVersion).toBe('toolroom.dev/v1alpha1')
    expect(openSecretValues(row.ciphertext, row.keyId)).toEqual({ token: 'sk-live-aaaaaaaaaaaaaaaa', user: 'alice' })

    expectAllUnchanged(await apply(k8s('stringData:\n  token: sk-live-aaaaaaaaaaaaaaaa\ndata:\n  user: YWxpY2U=\n')), 1)
    const changed = await apply(k8s('stringData:\n  token: sk-live-bbbbbbbbbbbbbbbb\n  user: alice\n'))
    expect(changed.json.results[0].action).toBe('updated')

    const got = await call(resourceRoutes('Secret').get, `/api/v1/secrets/${row.id}`, { params: { id: row.id } })
    expect(got.json.spec).toEqual({ type: 'opaque', keys: ['token', 'user'] })
    expect(got.text).not.toContain('sk-live')
    expectAllUnchanged(await apply(got.text, 'application/json'), 1)
    const after = await prisma.secret.findUniqueOrThrow({ where: { id: row.id } })
    expect(openSecretValues(after.ciphertext, after.keyId)).toEqual({ token: 'sk-live-bbbbbbbbbbbbbbbb', user: 'alice' })
  })

  it('keys alone keep only the stored keys of a stored Secret, and never come with values', async () => {
    const keysOnly = (name: string, keys: string[], extra = '') =>
      apply(`apiVersion: toolroom.dev/v1alpha1\nkind: Secret\nmetadata: {name: ${name}, namespace: rt}\nspec:\n  keys: ${JSON.stringify(keys)}\n${extra}`)
    const fewer = await keysOnly('crm-token', ['token'])
    expect(fewer.status).toBe(422)
    expect(fewer.json.errors[0]).toMatchObject({ field: 'spec.keys', rule: 'secret-values', message: expect.stringContaining('token, user') })
    const absent = await keysOnly('nothing-here', ['token'])
    expect(absent.status).toBe(422)
    expect(absent.json.errors[0]).toMatchObject({ field: 'spec.keys', rule: 'secret-values' })
    const both = await keysOnly('crm-token', ['token', 'user'], '  stringData: {token: x}\n')
    expect(both.status).toBe(422)
    expect(both.json.errors[0]).toMatchObject({ field: 'spec.keys', rule: 'exclusive' })
    const none = await keysOnly('crm-token', [])
    expect(none.json.errors[0]).toMatchObject({ field: 'spec.keys', rule: 'required' })
  })

  it('report problems at the fields as written, and refuse other Kubernetes types and fields', async () => {
    const bad = await apply(k8s('type: kubernetes.io/tls\ndata:\n  tls.crt: "not base64!"\nimmutable: true\n').replace('type: Opaque\n', ''))
    expect(bad.status).toBe(422)
    const fields = bad.json.errors.map((e: { field: string; rule: string }) => `${e.field} ${e.rule}`)
    expect(fields).toEqual(expect.arrayContaining(['type enum', 'data.tls.crt format', 'immutable unknown-field']))
    const empty = await apply(k8s(''))
    expect(empty.json.errors[0]).toMatchObject({ field: 'stringData', rule: 'required' })
    // Only a Secret has a Kubernetes form.
    const tool = await apply('apiVersion: v1\nkind: Tool\nmetadata: {name: acme.x}\nspec: {type: function, description: x, inputSchema: {type: object}}\n')
    expect(tool.json.errors[0]).toMatchObject({ field: 'apiVersion', rule: 'api-version' })
  })
})
