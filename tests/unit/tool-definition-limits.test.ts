// The limits of tool definitions, one rule for apply, image tools and MCP discovery, and the gateway's
// guard for schemas stored before them: deep nesting (through $refs too), $ref cycles that never
// descend into the value, size, long descriptions and names, text PostgreSQL cannot hold.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizeTools } from '@/lib/discovery/mcp/normalize-tools'
import { validateArguments } from '@/lib/gateway/validate-args'
import { validateImageTools } from '@/lib/image-tools/validate-image-tools'
import { checkToolJsonSchema, MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH } from '@/lib/manifests/json-schema'
import { MAX_DESCRIPTION_LENGTH, MAX_UPSTREAM_TOOL_NAME_LENGTH } from '@/lib/manifests/tool-definition-limits'

const check = (schema: unknown) => checkToolJsonSchema(schema, { requireObjectRoot: true })

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' }
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } }
  return schema
}

/** `$defs` d0 → d1 → … → dN, each an object whose property refers to the next. */
function refChain(length: number, pure = false): Record<string, unknown> {
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < length; i++) $defs[`d${i}`] = pure ? { $ref: `#/$defs/d${i + 1}` } : { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` } } }
  $defs[`d${length}`] = { type: 'string' }
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs }
}

const manyProperties = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])) })

describe('schema limits', () => {
  it('refuse nesting beyond the limit, plain or through $ref chains, naming the limit', () => {
    expect(check(nested(15))).toEqual([])
    for (const schema of [nested(1500), refChain(1500), refChain(1500, true), refChain(12)])
      expect(check(schema)).toEqual([`nests deeper than the limit of ${MAX_SCHEMA_DEPTH} levels (each $ref followed counts as one)`])
    expect(check(refChain(3))).toEqual([])
  })

  it('refuse $ref cycles that never descend into the value, and keep recursion through it', () => {
    const loops = [
      { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
      { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } },
      { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { $anchor: 'here', anyOf: [{ $ref: '#here' }] } } },
      { type: 'object', allOf: [{ $ref: '#' }] },
    ]
    for (const schema of loops)
      expect(check(schema), JSON.stringify(schema)).toEqual([expect.stringMatching(/^\$ref cycle that never descends into the value \(.*\$ref #/)])
    const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } }
    const linked = {
      type: 'object',
      properties: { head: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
    }
    expect(check(tree)).toEqual([])
    expect(check(linked)).toEqual([])
    expect(validateArguments(tree, { name: 'a', children: [{ name: 'b', children: [] }] })).toEqual([])
  })

  it('refuse a $schema the gateway has no meta-schema of by its name, without throwing', () => {
    expect(check({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toEqual([])
    for (const $schema of ['http://json-schema.org/draft-04/schema#', 'https://json-schema.org/draft/2019-09/schema', 'nonsense'])
      expect(check({ $schema, type: 'object' })).toEqual([
        `"$schema" ${JSON.stringify($schema)} is not a draft this gateway validates with (2020-12, or draft-07)`,
      ])
    const { tools, refused } = normalizeTools([
      { name: 'old_draft', inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } },
      { name: 'fine', inputSchema: { type: 'object' } },
    ])
    expect(tools.map((t) => t.name)).toEqual(['fine'])
    expect(refused).toEqual([{ name: 'old_draft', reason: expect.stringContaining('is not a draft this gateway validates with') }])
  })

  it(`refuse schemas over ${MAX_SCHEMA_BYTES} bytes as JSON`, () => {
    expect(check(manyProperties(100))).toEqual([])
    expect(check(manyProperties(100_000))).toEqual([expect.stringMatching(new RegExp(`^is \\d+ bytes as JSON, over the limit of ${MAX_SCHEMA_BYTES} bytes`))])
  })

  it('the gateway refuses a stored schema beyond them by name instead of overflowing the stack', () => {
    for (const schema of [nested(1500), refChain(1500)]) {
      const [violation, ...more] = validateArguments(schema, { x: 'a' })
      expect(more).toEqual([])
      expect(violation).toEqual({
        path: '(schema)',
        rule: 'schema',
        message: expect.stringContaining(`the tool's inputSchema cannot be used: nests deeper than the limit of ${MAX_SCHEMA_DEPTH} levels`),
      })
    }
    const loop = { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } }
    expect(validateArguments(loop, { x: 1 })).toEqual([
      { path: '(schema)', rule: 'schema', message: expect.stringContaining('$ref cycle that never descends') },
    ])
  })
})

/** Schemas made of the keywords that refer and apply in place, with refs into a few definitions, anchors and the root. */
const REFS = ['#', '#/$defs/a', '#/$defs/b', '#/$defs/c', '#here', '#/properties/x', '#/$defs/a/allOf/0']
const schemaArb = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom({ type: 'string' }, { type: 'object' }, {}, { type: 'integer', minimum: 0 }),
    fc.record({ $ref: fc.constantFrom(...REFS) }),
    fc.record({ allOf: fc.array(tie('schema'), { maxLength: 2 }) }),
    fc.record({ anyOf: fc.array(tie('schema'), { maxLength: 2 }) }),
    fc.record({ not: tie('schema') }),
    fc.record({ if: tie('schema'), then: tie('schema') }),
    fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('x', 'y'), tie('schema'), { maxKeys: 2 }) }),
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.record({ $anchor: fc.constant('here'), anyOf: fc.array(tie('schema'), { maxLength: 2 }) }),
  ),
}))
const rootArb = fc.record({
  type: fc.constant('object'),
  properties: fc.record({ x: schemaArb.schema }),
  $defs: fc.record({ a: schemaArb.schema, b: schemaArb.schema, c: schemaArb.schema }),
})

describe('schema limits (properties)', () => {
  it('a schema they accept validates any arguments without throwing; one they refuse is refused by name at the gateway', () => {
    fc.assert(
      fc.property(rootArb, fc.jsonValue({ maxDepth: 6 }), (schema, x) => {
        const problems = check(schema)
        const violations = validateArguments(schema, { x })
        if (problems.length > 0) expect(violations).toEqual([expect.objectContaining({ path: '(schema)', rule: 'schema' })])
        for (const v of violations) expect(v.message).not.toMatch(/call stack/i)
      }),
      { numRuns: 300 },
    )
  })

  it('judge any tools/list or /a2a/tools answer entry by entry without throwing', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.anything(), fc.record({ name: fc.string(), inputSchema: fc.anything(), description: fc.anything() }))), (raw) => {
        const mcp = normalizeTools(raw)
        expect(mcp.tools.length + mcp.refused.length).toBe(raw.length)
        validateImageTools(raw, new Set())
      }),
      { numRuns: 300 },
    )
  })
})

describe('discovered tools keep the limits of applied ones', () => {
  const good = { name: 'good', description: 'Fine', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }

  it('MCP: each offending entry is refused with its reason, the others kept', () => {
    const { tools, refused } = normalizeTools([
      good,
      { name: 'deep', inputSchema: nested(1500) },
      { name: 'deep_output', inputSchema: { type: 'object' }, outputSchema: refChain(200) },
      { name: 'huge', inputSchema: manyProperties(20_000) },
      { name: 'chatty', description: 'x'.repeat(MAX_DESCRIPTION_LENGTH + 1), inputSchema: { type: 'object' } },
      { name: 'loop', inputSchema: { type: 'object', allOf: [{ $ref: '#' }] } },
      { name: 'n'.repeat(MAX_UPSTREAM_TOOL_NAME_LENGTH + 1), inputSchema: { type: 'object' } },
      { name: 'nul\u0000name', inputSchema: { type: 'object' } },
      { name: 'odd_annotations', inputSchema: { type: 'object' }, annotations: nested(100) },
    ])
    expect(tools).toEqual([good])
    expect(Object.fromEntries(refused.map((r) => [r.name.slice(0, 20), r.reason]))).toEqual({
      deep: expect.stringMatching(/^inputSchema invalid JSON Schema: nests deeper than the limit of 32 levels.*\(rule json-schema\)$/),
      deep_output: expect.stringMatching(/^outputSchema invalid JSON Schema: nests deeper/),
      huge: expect.stringMatching(/^inputSchema invalid JSON Schema: is \d+ bytes as JSON, over the limit/),
      chatty: `description must be at most ${MAX_DESCRIPTION_LENGTH} characters, got ${MAX_DESCRIPTION_LENGTH + 1} (rule max-length)`,
      loop: expect.stringMatching(/^inputSchema invalid JSON Schema: \$ref cycle/),
      ['n'.repeat(20)]:
        `entry 7 of tools/list has a name of ${MAX_UPSTREAM_TOOL_NAME_LENGTH + 1} characters; a tool name is at most ${MAX_UPSTREAM_TOOL_NAME_LENGTH}`,
      'nul\u2400name': expect.stringMatching(/^name must not contain NUL characters.*\(rule storable-text\)$/),
      odd_annotations: expect.stringMatching(/^annotations nests deeper/),
    })
    // What is recorded of a refusal is storable and bounded.
    for (const r of refused) expect(r.name.length).toBeLessThanOrEqual(MAX_UPSTREAM_TOOL_NAME_LENGTH + 1)
  })

  it('images: the same rules, as field errors', () => {
    const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: 'd', inputSchema: { type: 'object' }, ...extra })
    const verdict = validateImageTools(
      [
        tool('acme.good'),
        tool('acme.deep', { inputSchema: nested(1500) }),
        tool('acme.huge', { inputSchema: manyProperties(20_000) }),
        tool('acme.nul', { description: 'a\u0000b' }),
      ],
      new Set(),
    )
    expect(verdict.tools.map((t) => t.name)).toEqual(['acme.good'])
    expect(verdict.errors.map((e) => [e.field, e.rule, e.name])).toEqual([
      ['tools[1].inputSchema', 'json-schema', 'acme.deep'],
      ['tools[2].inputSchema', 'json-schema', 'acme.huge'],
      ['tools[3].description', 'storable-text', 'acme.nul'],
    ])
  })
})
