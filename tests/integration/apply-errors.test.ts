// Apply answers every problem of every document in one round, each at its line and column: a
// manifest with a syntax error in one document, field errors beside a cross-field rule in another, an
// unknown field and a duplicate name used to take four rounds of fixes. JSON manifests are located
// too, refusals of admin-only kinds come with the other problems, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { call, type Caller, countRows, resetDatabase } from './helpers'
import { sessionCookie } from './access-fixtures'
import { manifestFixed, manifestWithProblems, problemsOfManifest } from '../support/manifest-with-problems'

const apply = (body: string, dryRun = true, as?: Caller) =>
  call(applyRoute, `/api/v1/apply${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    body,
    contentType: body.trimStart().startsWith('[') ? 'application/json' : 'application/yaml',
    ...(as ? { as } : {}),
  })

beforeAll(async () => {
  await resetDatabase()
})

describe('Apply answers every problem at once', () => {
  it('lists the problems of every document, each at its line and column, in text order', async () => {
    const before = await countRows()
    const res = await apply(manifestWithProblems(), false)
    expect(res.status).toBe(422)
    expect(res.contentType).toMatch(/problem\+json/)
    expect(res.json.detail).toBe('6 validation errors in 4 documents; nothing was written')
    expect(res.json.errors).toMatchObject(problemsOfManifest(expect.any(Number)))
    expect(await countRows()).toEqual(before)
  })

  it('accepts the manifest once those are fixed, in one round', async () => {
    const res = await apply(manifestFixed())
    expect(res.status, res.text).toBe(200)
    expect(res.json.summary).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 })
  })

  it('locates the problems of a JSON manifest the same way', async () => {
    const text = JSON.stringify(
      [
        { apiVersion: 'toolroom.dev/v1alpha1', kind: 'Agent', metadata: { name: 'j1', namespace: 'errs' }, spec: { grants: ['NOT AN ID'] } },
        {
          apiVersion: 'toolroom.dev/v1alpha1',
          kind: 'Tool',
          metadata: { name: 'j.tool', namespace: 'errs' },
          spec: { type: 'mcp', description: 'd', inputSchema: { type: 'object' } },
        },
      ],
      null,
      2,
    )
    const lines = text.split('\n')
    const specLines = lines.flatMap((l, i) => (l.includes('"spec": {') ? [i] : []))
    const res = await apply(text)
    expect(res.status).toBe(422)
    expect(res.json.errors.map((e: { field: string; line: number; column: number }) => [e.field, e.line, e.column])).toEqual([
      ['spec.grants[0]', lines.findIndex((l) => l.includes('"NOT AN ID"')) + 1, lines.find((l) => l.includes('"NOT AN ID"'))!.indexOf('"') + 1],
      // A missing field: at the key of its parent, the second document's "spec".
      ['spec.mcpServerRef', specLines[1] + 1, lines[specLines[1]].indexOf('"') + 1],
    ])
  })

  it('lists a refused admin-only document with every other problem, located', async () => {
    const cookie = await sessionCookie('operator')
    const text = `apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: s1, namespace: errs }
spec: { stringData: { token: abcdefgh } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: Bad_Name, namespace: errs }
spec: {}
`
    const res = await apply(text, true, { cookie })
    expect(res.status).toBe(403)
    expect(res.json.errors.map((e: { document: number; rule: string; line: number }) => [e.document, e.rule, e.line])).toEqual([
      [0, 'admin-only-kind', 2],
      [1, 'format', 8],
    ])
  })

  it('answers hostile manifests with located problems, never a 500', async () => {
    for (const text of [
      '{"kind": ',
      '[\n  {"kind": "Agent",\n   "metadata": }\n]',
      '\ufeff[{"kind":"Agent","kind":"Tool"}]',
      'kind: [\n---\n: :\n---\n- - - x',
      `${'- '.repeat(90)}x`,
      'a: &a [1]\nb: *a\nc: *nope',
      JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ kind: 'Agent', metadata: { name: `a${i}`, name2: 1 }, spec: { grants: [1] } }))),
    ]) {
      const res = await apply(text)
      expect(res.status, text.slice(0, 40)).toBe(422)
      for (const e of res.json.errors) {
        expect(e.field, text.slice(0, 40)).toEqual(expect.any(String))
        expect(e.rule).toEqual(expect.any(String))
        expect(e.line).toBeGreaterThanOrEqual(1)
        expect(e.column).toBeGreaterThanOrEqual(1)
      }
    }
  })
})
