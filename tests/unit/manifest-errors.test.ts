// Every problem of a manifest in one pass, each at its line and column: documents around a syntax
// error are still read, cross-field rules run beside field errors, rules across documents see
// documents whose spec is wrong, and positions come from the YAML parser for YAML and JSON alike.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FieldError } from '@/lib/errors/app-error'
import { checkManifestRules, type IdentifiedDocument, type IndexedDocument, type StoredRuleContext } from '@/lib/manifests/check-manifest-rules'
import { fieldSegments } from '@/lib/manifests/locate-fields'
import { readManifest } from '@/lib/manifests/parse-manifest'
import { validateDocument } from '@/lib/manifests/validate-document'
import { manifestWithProblems, problemsOfManifest } from '../support/manifest-with-problems'

const emptyStore = (): StoredRuleContext => ({ connectors: new Map(), unitParents: new Map(), toolsUnderSlug: new Map() })

/** What Apply does with a text, without the database: read, validate each document, the rules across them, locate. */
function problems(text: string): FieldError[] {
  const read = readManifest(text)
  const errors = [...read.errors]
  const valid: IndexedDocument[] = []
  const identified: IdentifiedDocument[] = []
  for (const { index, value } of read.documents) {
    const result = validateDocument(value, index)
    if (result.document) valid.push({ index, document: result.document })
    else if (result.identity) identified.push({ index, ...result.identity })
    errors.push(...result.errors)
  }
  errors.push(...checkManifestRules(valid, emptyStore(), identified))
  return read.locate(errors)
}

const brief = (errors: FieldError[]) => errors.map(({ document, field, rule, line, column }) => ({ document, field, rule, line, column }))

describe('every problem at once', () => {
  it('reads the documents around a syntax error and reports every problem of every document, in text order, at its line and column', () => {
    const text = manifestWithProblems()
    expect(readManifest(text).documents.map((d) => d.index)).toEqual([0, 1, 3])
    expect(brief(problems(text))).toEqual(problemsOfManifest(expect.any(Number)))
    const syntax = problems(text).find((e) => e.rule === 'yaml-syntax')!
    expect(syntax.line).toBeGreaterThanOrEqual(18)
    expect(syntax.line).toBeLessThanOrEqual(20)
  })

  it("runs the rules across a spec's fields beside its field errors", () => {
    const { errors } = validateDocument(
      {
        apiVersion: 'toolroom.dev/v1alpha1',
        kind: 'Tool',
        metadata: { name: 'a.b' },
        spec: { type: 'rest', description: 5, inputSchema: { type: 'object' }, command: { argv: ['x'] } },
      },
      0,
    )
    expect(errors.map((e) => [e.field, e.rule])).toEqual(
      expect.arrayContaining([
        ['spec.description', 'type'],
        ['spec.endpoint', 'required'],
        ['spec.command', 'not-allowed'],
      ]),
    )
    const connector = validateDocument({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'Connector', metadata: { name: 'acme' }, spec: { description: 7 } }, 0)
    expect(connector.errors.map((e) => [e.field, e.rule])).toEqual([
      ['spec.description', 'type'],
      ['spec.tools', 'required'],
    ])
    const server = validateDocument({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'LanguageTool', metadata: { name: 'm' }, spec: { port: 'x' } }, 0)
    expect(server.errors.map((e) => [e.field, e.rule])).toEqual([
      ['spec.port', 'type'],
      ['spec.image', 'required'],
    ])
  })

  it('reads fields of the wrong type defensively in those rules', () => {
    const secret = validateDocument(
      { apiVersion: 'toolroom.dev/v1alpha1', kind: 'Secret', metadata: { name: 's' }, spec: { stringData: 'not a map', data: 7 } },
      0,
    )
    expect(secret.errors.map((e) => [e.field, e.rule])).toEqual([
      ['spec.stringData', 'type'],
      ['spec.data', 'type'],
    ])
    for (const spec of [null, 'x', [], 5, { type: ['rest'] }, { type: { toString: 1 } }])
      expect(() => validateDocument({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'Tool', metadata: { name: 'a.b' }, spec }, 0)).not.toThrow()
  })

  it('finds duplicates and reserved names among documents whose spec is wrong', () => {
    const text = `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: toolroom.sneaky }
spec: { type: rest }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: team }
spec: { parent: 7 }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: team }
spec: {}
`
    expect(problems(text).map((e) => [e.document, e.field, e.rule])).toEqual([
      [0, 'metadata.name', 'reserved-namespace'],
      [0, 'spec.description', 'required'],
      [0, 'spec.inputSchema', 'required'],
      [0, 'spec.endpoint', 'required'],
      [1, 'spec.parent', 'type'],
      [2, 'metadata.name', 'duplicate'],
    ])
  })
})

describe('positions in JSON', () => {
  const docs = [
    { apiVersion: 'toolroom.dev/v1alpha1', kind: 'Agent', metadata: { name: 'a' }, spec: { grants: ['x.y', 'NOT AN ID'] } },
    { apiVersion: 'toolroom.dev/v1alpha1', kind: 'Agent', metadata: { name: 'b' }, spec: { colour: 1 } },
  ]

  it('locates errors in a pretty-printed array of documents', () => {
    const text = JSON.stringify(docs, null, 2)
    const lines = text.split('\n')
    const errors = problems(text)
    expect(brief(errors)).toEqual([
      {
        document: 0,
        field: 'spec.grants[1]',
        rule: 'format',
        line: lines.findIndex((l) => l.includes('"NOT AN ID"')) + 1,
        column: lines.find((l) => l.includes('"NOT AN ID"'))!.indexOf('"') + 1,
      },
      {
        document: 1,
        field: 'spec.colour',
        rule: 'unknown-field',
        line: lines.findIndex((l) => l.includes('"colour"')) + 1,
        column: lines.find((l) => l.includes('"colour"'))!.indexOf('"') + 1,
      },
    ])
  })

  it('locates errors in a List on one line, and every repeated key at its repetition', () => {
    const text = `{"kind":"List","items":${JSON.stringify(docs)}}`
    const errors = problems(text)
    expect(errors.map((e) => [e.document, e.line, e.column])).toEqual([
      [0, 1, text.indexOf('"NOT AN ID"') + 1],
      [1, 1, text.indexOf('"colour"') + 1],
    ])
    const repeated = `[\n {"kind": "Agent", "kind": "Tool"},\n {"metadata": {"name": "x", "name": "y"}}\n]`
    const read = readManifest(repeated)
    expect(read.errors.map((e) => [e.document, e.field, e.rule, e.line, e.column])).toEqual([
      [0, 'kind', 'duplicate-key', 2, 20],
      [1, 'metadata.name', 'duplicate-key', 3, 29],
    ])
    // The repeated keys do not keep the documents from being checked.
    expect(read.documents).toHaveLength(2)
  })

  it('places a JSON syntax error where the parser stopped', () => {
    const [error] = readManifest('[\n  {"kind": "Agent",\n   "metadata": }\n]').errors
    expect(error).toMatchObject({ rule: 'json-syntax', line: 3 })
    expect(error.column).toBeGreaterThan(1)
  })
})

describe('locating, for any text', () => {
  it('splits field paths into keys and indexes', () => {
    expect(fieldSegments('spec.safety.allowedAgents[1]')).toEqual(['spec', 'safety', 'allowedAgents', 1])
    expect(fieldSegments('spec.items[0][2].x')).toEqual(['spec', 'items', 0, 2, 'x'])
    expect(fieldSegments('(document)')).toEqual(['(document)'])
  })

  const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))
  const doc = fc.record({
    apiVersion: fc.constantFrom('toolroom.dev/v1alpha1', 'v9', 7),
    kind: fc.constantFrom('Agent', 'Tool', 'Unit', 'Nope'),
    metadata: fc.record({ name: fc.oneof(fc.constantFrom('a', 'a.b', 'BAD NAME'), value) }, { requiredKeys: [] }),
    spec: fc.dictionary(
      fc.constantFrom('grants', 'type', 'parent', 'toggles', 'x', 'description'),
      fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), value)),
    ),
  })
  const yamlOf = (d: unknown) => JSON.stringify(d, null, 1).replace(/^\s*[{}],?$/gm, '')

  it('gives every error of random manifests a line and column inside the text, never throwing', () => {
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 4 }), fc.boolean(), (documents, asJson) => {
        const text = asJson ? JSON.stringify(documents, null, 2) : documents.map((d) => yamlOf(d)).join('\n---\n')
        const lines = text.split('\n')
        for (const e of problems(text)) {
          if (e.line === undefined) continue
          expect(e.line).toBeGreaterThanOrEqual(1)
          expect(e.line).toBeLessThanOrEqual(lines.length)
          expect(e.column).toBeGreaterThanOrEqual(1)
          expect(e.column!).toBeLessThanOrEqual(lines[e.line - 1].length + 1)
        }
      }),
      { numRuns: 100 },
    )
  }, 60_000)
})
