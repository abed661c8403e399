// The check that holds answers to their route contract (lib/http/response-check.ts), which the
// integration tests run with on.
import { describe, expect, it } from 'vitest'
import type { RouteContract } from '@/lib/http/contract'
import { mismatchesOf } from '@/lib/http/response-check'
import { z } from '@/lib/http/zod'

const contract = {
  method: 'GET',
  path: '/api/v1/things',
  operationId: 'listThings',
  summary: 'Things',
  tags: [],
  access: 'read',
  response: z.object({ items: z.array(z.object({ id: z.string(), state: z.enum(['on', 'off']) })), nextCursor: z.string().nullable() }),
} satisfies RouteContract

const json = (body: unknown, status = 200, type = 'application/json') => new Response(JSON.stringify(body), { status, headers: { 'content-type': type } })

describe('answers held to their contract', () => {
  it('passes an answer that matches, and leaves the answer readable', async () => {
    const response = json({ items: [{ id: 'a', state: 'on' }], nextCursor: null })
    expect(await mismatchesOf(contract, response)).toEqual([])
    expect(await response.json()).toEqual({ items: [{ id: 'a', state: 'on' }], nextCursor: null })
  })

  it('names wrong types, missing fields and values outside an enum', async () => {
    const found = await mismatchesOf(contract, json({ items: [{ id: 1, state: 'maybe' }] }))
    expect(found).toEqual([expect.stringMatching(/^items\[0\]\.id: /), expect.stringMatching(/^items\[0\]\.state: /), expect.stringMatching(/^nextCursor: /)])
  })

  it('names fields the contract does not declare, however deep', async () => {
    const found = await mismatchesOf(contract, json({ items: [{ id: 'a', state: 'on', secretCiphertext: 'x' }], nextCursor: null, debug: true }))
    expect(found).toEqual(['items[0].secretCiphertext: a field the contract does not declare', 'debug: a field the contract does not declare'])
  })

  it('holds errors to the problem schema, status and content type to the contract', async () => {
    expect(await mismatchesOf(contract, json({ type: 't', title: 'Not found', status: 404, detail: 'gone' }, 404, 'application/problem+json'))).toEqual([])
    expect(await mismatchesOf(contract, json({ message: 'gone' }, 404, 'application/problem+json'))).not.toEqual([])
    expect(await mismatchesOf(contract, json({ message: 'gone' }, 404))).toEqual(['an error answer of type "application/json", not application/problem+json'])
    expect(await mismatchesOf(contract, json({ items: [], nextCursor: null }, 201))).toEqual(['status 201, where the contract says 200'])
    expect(await mismatchesOf(contract, new Response('items: []', { headers: { 'content-type': 'application/yaml' } }))).toEqual([
      'content type "application/yaml", where the contract says application/json',
    ])
    expect(await mismatchesOf(contract, new Response('{', { headers: { 'content-type': 'application/json' } }))).toEqual(['a body that is not JSON'])
  })

  it('wants no body where the contract declares none', async () => {
    const remove = { ...contract, method: 'DELETE', response: undefined, successStatus: 204 } satisfies RouteContract
    expect(await mismatchesOf(remove, new Response(null, { status: 204 }))).toEqual([])
    expect(await mismatchesOf({ ...remove, successStatus: 200 }, json({ deleted: true }))).toEqual(['a body, where the contract declares none'])
  })

  it('takes a 304 with its ETag and no body only from a route that declares conditional reads', async () => {
    const tagged = { ...contract, etag: { from: 'registry' } } satisfies RouteContract
    const notModified = (body: string | null, headers: Record<string, string> = { etag: 'W/"a"' }) => new Response(body, { status: 304, headers })
    expect(await mismatchesOf(tagged, notModified(null))).toEqual([])
    expect(await mismatchesOf(tagged, notModified(null, {}))).toEqual(['a 304 with a body or without its ETag'])
    expect(await mismatchesOf(contract, notModified(null))).toEqual(['status 304, where the contract says 200'])
  })
})
