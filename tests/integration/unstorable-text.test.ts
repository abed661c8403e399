// Text PostgreSQL cannot hold (NUL, unpaired surrogates) in ids, filters, bodies and manifests: every
// route answers a 422 naming the field (it answered 500), walked from ALL_CONTRACTS so a new route is
// covered as soon as it exists.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { applyRoute } from '@/lib/api/registry-routes'
import type { RouteContract } from '@/lib/http/contract'
import { call, resetDatabase } from './helpers'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>

async function handlerFor(contract: RouteContract): Promise<Handler> {
  const file = path.resolve(`app${contract.path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`)
  return ((await import(file)) as Record<string, Handler>)[contract.method]
}

const NUL = 'x\u0000y'
const people = ALL_CONTRACTS.filter((c) => c.access !== 'agent' && c.access !== 'public')

beforeAll(async () => {
  await resetDatabase()
})

describe('text PostgreSQL cannot store', () => {
  it('in an id or other path parameter is a 422 naming it, on every route', async () => {
    const withParams = people.filter((c) => /\{\w+\}/.test(c.path))
    expect(withParams.length).toBeGreaterThan(10)
    for (const contract of withParams) {
      const names = [...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      for (const name of names) {
        const params = Object.fromEntries(names.map((n) => [n, n === name ? NUL : '00000000-0000-4000-8000-000000000000']))
        const url = contract.path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(params[n]))
        const res = await call(await handlerFor(contract), url, {
          method: contract.method,
          params,
          ...(contract.body && contract.method !== 'GET' ? { body: {} } : {}),
        })
        expect(res.status, `${contract.method} ${contract.path} ${name}: ${res.text}`).toBe(422)
        expect(res.json.errors, `${contract.method} ${contract.path}`).toEqual([expect.objectContaining({ field: name, rule: 'storable-text' })])
      }
    }
  })

  it('in any q= filter (and any other query parameter) is a 422 naming it', async () => {
    const filters = people.filter((c) => c.method === 'GET' && c.query?.shape.q)
    expect(filters.length).toBeGreaterThan(5)
    for (const contract of filters) {
      const params = Object.fromEntries([...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], '00000000-0000-4000-8000-000000000000']))
      const url = `${contract.path.replace(/\{(\w+)\}/g, (_m, n: string) => params[n])}?q=${encodeURIComponent(NUL)}&limit=5`
      const res = await call(await handlerFor(contract), url, { params })
      expect(res.status, `${contract.path}: ${res.text}`).toBe(422)
      expect(res.json.errors).toEqual([expect.objectContaining({ field: 'q', rule: 'storable-text' })])
    }
    const anyQuery = people.find((c) => c.method === 'GET' && c.path === '/api/v1/audit')
    if (anyQuery) {
      const res = await call(await handlerFor(anyQuery), `/api/v1/audit?resourceId=${encodeURIComponent(NUL)}`)
      expect(res.status).toBe(422)
    }
  })

  it('in a JSON body is a 422 naming the field, and in a manifest a problem naming the document and field', async () => {
    const create = people.find((c) => c.method === 'POST' && c.path === '/api/v1/units')!
    const res = await call(await handlerFor(create), '/api/v1/units', {
      method: 'POST',
      body: { metadata: { name: 'u1', namespace: 'default' }, spec: { displayName: 'lone \ud800 surrogate' } },
    })
    expect(res.status, res.text).toBe(422)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'spec.displayName', rule: 'storable-text' })])

    const yaml = `apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: u2, namespace: default }
spec: { displayName: "nul \\0 inside" }
`
    const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: yaml })
    expect(applied.status, applied.text).toBe(422)
    expect(applied.json.errors).toEqual([expect.objectContaining({ document: 0, field: 'spec.displayName', rule: 'storable-text' })])
    const asJson = await call(applyRoute, '/api/v1/apply', {
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'Unit', metadata: { name: 'u3\u0000', namespace: 'default' }, spec: {} }),
    })
    expect(asJson.status, asJson.text).toBe(422)
    expect(asJson.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'metadata.name', rule: 'storable-text' })]))
  })
})
