import { describe, expect, it } from 'vitest'
import { MAX_IMAGE_TOOLS, validateImageTools } from '@/lib/image-tools/validate-image-tools'

const tool = (name: unknown, over: Record<string, unknown> = {}) => ({
  name,
  description: `${String(name)} tool`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...over,
})
const slugs = new Set(['github'])
const check = (entries: unknown) => validateImageTools(entries, slugs)
const names = (entries: { name: string }[]) => entries.map((e) => e.name)

describe('validateImageTools', () => {
  it('accepts a clean surface as declared, in declaration order', () => {
    const entries = [tool('acme.zeta'), tool('acme.alpha'), tool('acme.tools.mid')]
    const verdict = check(entries)
    expect(verdict.errors).toEqual([])
    expect(verdict.tools).toEqual(entries)
  })

  it('accepts an empty surface', () => {
    expect(check([])).toEqual({ tools: [], errors: [] })
  })

  it.each(['echo', 'Acme.echo', 'acme-tools.echo', 'acme..echo', 'acme.echo ', `a.${'b'.repeat(127)}`])('refuses the non-canonical id %j', (name) => {
    const verdict = check([tool('acme.ok'), tool(name)])
    expect(names(verdict.tools)).toEqual(['acme.ok'])
    expect(verdict.errors).toHaveLength(1)
    expect(verdict.errors[0]).toMatchObject({ field: 'tools[1].name', rule: 'canonical-id', name })
  })

  it('refuses a missing or non-string name', () => {
    const verdict = check([{ description: 'x', inputSchema: { type: 'object' } }, tool(42)])
    expect(verdict.tools).toEqual([])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0].name', 'required'],
      ['tools[1].name', 'required'],
    ])
    expect(verdict.errors[0].name).toBeUndefined()
  })

  it('refuses a duplicate id and keeps the first declaration', () => {
    const first = tool('acme.echo', { description: 'first' })
    const verdict = check([first, tool('acme.other'), tool('acme.echo', { description: 'second' })])
    expect(verdict.tools).toEqual([first, tool('acme.other')])
    expect(verdict.errors).toMatchObject([{ field: 'tools[2].name', rule: 'duplicate', name: 'acme.echo' }])
    expect(verdict.errors[0].message).toContain('more than once')
  })

  it('refuses ids under toolroom.* and under a connector slug', () => {
    const verdict = check([tool('toolroom.call_tool'), tool('github.create_issue'), tool('githubx.create_issue')])
    expect(names(verdict.tools)).toEqual(['githubx.create_issue'])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0].name', 'reserved-namespace'],
      ['tools[1].name', 'reserved-namespace'],
    ])
    expect(verdict.errors[0].message).toContain('toolroom.*')
    expect(verdict.errors[1].message).toContain('connector "github"')
  })

  it('reserves only the slugs it is given', () => {
    expect(validateImageTools([tool('github.create_issue')], new Set()).errors).toEqual([])
  })

  it.each([
    ['an unknown type', { type: 'objekt' }],
    ['a non-object root', { type: 'string' }],
    ['a bad nested type', { type: 'object', properties: { a: { type: 12 } } }],
    ['a schema that is not an object', 'object'],
    ['a missing schema', undefined],
    ['a broken $ref', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }],
  ])('refuses %s as inputSchema', (_what, inputSchema) => {
    const verdict = check([tool('acme.ok'), tool('acme.bad', { inputSchema })])
    expect(names(verdict.tools)).toEqual(['acme.ok'])
    expect(verdict.errors.length).toBeGreaterThan(0)
    for (const e of verdict.errors) expect(e).toMatchObject({ field: 'tools[1].inputSchema', rule: 'json-schema', name: 'acme.bad' })
  })

  it('refuses unknown fields, one error per field', () => {
    const verdict = check([tool('acme.echo', { outputSchema: {}, level: 'read_only' })])
    expect(verdict.tools).toEqual([])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0].outputSchema', 'unknown-field'],
      ['tools[0].level', 'unknown-field'],
    ])
  })

  it('refuses a missing or oversize description', () => {
    const verdict = check([
      tool('acme.a', { description: undefined }),
      tool('acme.b', { description: 'x'.repeat(4001) }),
      tool('acme.c', { description: 'x'.repeat(4000) }),
    ])
    expect(names(verdict.tools)).toEqual(['acme.c'])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0].description', 'required'],
      ['tools[1].description', 'max-length'],
    ])
  })

  it('refuses entries that are not objects', () => {
    const verdict = check(['acme.echo', null, [tool('acme.x')], tool('acme.ok')])
    expect(names(verdict.tools)).toEqual(['acme.ok'])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0]', 'type'],
      ['tools[1]', 'type'],
      ['tools[2]', 'type'],
    ])
  })

  it('reports every broken rule of one entry', () => {
    const verdict = check([{ name: 'Bad', inputSchema: { type: 'array' }, extra: 1 }])
    expect(verdict.errors.map((e) => [e.field, e.rule])).toEqual([
      ['tools[0].extra', 'unknown-field'],
      ['tools[0].name', 'canonical-id'],
      ['tools[0].description', 'required'],
      ['tools[0].inputSchema', 'json-schema'],
    ])
  })

  it('keeps valid entries in declaration order around refused ones', () => {
    const verdict = check([
      tool('acme.c'),
      tool('toolroom.x'),
      tool('acme.a'),
      tool('acme.c'),
      tool('acme.b', { inputSchema: { type: 'objekt' } }),
      tool('acme.d'),
    ])
    expect(names(verdict.tools)).toEqual(['acme.c', 'acme.a', 'acme.d'])
    expect(verdict.errors.map((e) => e.field)).toEqual(['tools[1].name', 'tools[3].name', 'tools[4].inputSchema'])
  })

  it.each([
    ['an object', { tools: [] }],
    ['a string', '[]'],
    ['null', null],
  ])('refuses %s instead of an array', (_what, entries) => {
    expect(check(entries)).toEqual({ tools: [], errors: [{ field: 'tools', rule: 'type', message: 'must be a JSON array of tool definitions' }] })
  })

  it(`refuses more than ${MAX_IMAGE_TOOLS} tools as a whole`, () => {
    const entries = Array.from({ length: MAX_IMAGE_TOOLS + 1 }, (_, i) => tool(`acme.t${i}`))
    const verdict = check(entries)
    expect(verdict.tools).toEqual([])
    expect(verdict.errors).toEqual([{ field: 'tools', rule: 'max-length', message: `at most ${MAX_IMAGE_TOOLS} tools, got ${MAX_IMAGE_TOOLS + 1}` }])
  })
})
