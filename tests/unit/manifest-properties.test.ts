// Property tests of manifest parsing and validation: whatever text or value comes in, they answer
// (documents, or problems naming field and rule) and never throw.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FieldError } from '@/lib/errors/app-error'
import { parseManifest } from '@/lib/manifests/parse-manifest'
import { validateDocument } from '@/lib/manifests/validate-document'

const TOOL = {
  apiVersion: 'toolroom.dev/v1alpha1',
  kind: 'Tool',
  metadata: { name: 'acme.echo', namespace: 'default', labels: { team: 'a' } },
  spec: {
    type: 'rest',
    description: 'Echo.',
    endpoint: { method: 'POST', url: 'https://example.com/echo', auth: { type: 'bearer', secretRef: { name: 'echo-token' } } },
    inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^[a-z]+$' } } },
    sideEffects: { level: 'read_only' },
    safety: { allowedAgents: ['bot'], rateLimit: { callsPerMinute: 10 } },
  },
}

/** Fragments manifests are made of, so random texts look like YAML often enough to go deep. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '---\n',
        'apiVersion: toolroom.dev/v1alpha1\n',
        'kind: Tool\n',
        'kind: Unit\n',
        'metadata:\n',
        '  name: x\n',
        '  namespace: default\n',
        'spec:\n',
        '  type: rest\n',
        '- a\n',
        '  - b\n',
        '&a [1]\n',
        '*a\n',
        '!!str x\n',
        '!!js/function f\n',
        '{a: 1}\n',
        '[\n',
        '"unterminated\n',
        '\t\n',
        ': :\n',
        '? complex\n',
        '%YAML 1.2\n',
        '<<: *a\n',
      ),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''))

function expectProblems(errors: FieldError[]) {
  expect(errors.length).toBeGreaterThan(0)
  for (const e of errors) {
    expect(typeof e.field).toBe('string')
    expect(typeof e.rule).toBe('string')
    expect(e.rule.length).toBeGreaterThan(0)
    expect(typeof e.message).toBe('string')
  }
}

/** `doc` with the value at one random path replaced (or deleted). */
const mutated = fc.tuple(fc.nat(), fc.anything({ maxDepth: 3 }), fc.boolean()).map(([seed, value, remove]) => {
  const copy = structuredClone(TOOL) as Record<string, unknown>
  const paths: string[][] = []
  const walk = (node: unknown, at: string[]) => {
    paths.push(at)
    if (typeof node === 'object' && node !== null) for (const [k, v] of Object.entries(node)) walk(v, [...at, k])
  }
  walk(copy, [])
  const path = paths[seed % paths.length]
  if (path.length === 0) return value
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((n, k) => n[k] as Record<string, unknown>, copy)
  if (remove) delete parent[path[path.length - 1]]
  else parent[path[path.length - 1]] = value
  return copy
})

describe('manifest properties', { timeout: 60_000 }, () => {
  it('parseManifest answers any text with documents or located problems, never throwing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), yamlish, fc.json()), (text) => {
        const parsed = parseManifest(text)
        if (parsed.errors.length > 0) {
          expect(parsed.documents).toEqual([])
          expectProblems(parsed.errors)
        } else expect(parsed.documents.length).toBeGreaterThan(0)
      }),
      { numRuns: 300 },
    )
  })

  it('validateDocument answers any value with a document or problems naming field and rule, never throwing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), mutated), (value) => {
        const { document, errors } = validateDocument(value, 0)
        if (document) expect(errors).toEqual([])
        else expectProblems(errors)
      }),
      { numRuns: 300 },
    )
  })

  it('accepts the unmutated document (so the mutations above start from something valid)', () => {
    expect(validateDocument(TOOL).errors).toEqual([])
  })

  it('validates parsed text end to end without throwing: YAML and JSON that parse are then validated', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          yamlish,
          mutated.map((d) => JSON.stringify(d) ?? 'null'),
        ),
        (text) => {
          const parsed = parseManifest(text)
          parsed.documents.forEach((d, i) => {
            const { document, errors } = validateDocument(d, i)
            if (!document) expectProblems(errors)
          })
        },
      ),
      { numRuns: 500 },
    )
  })
})
