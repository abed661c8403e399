// Schemas nobody here wrote run in linear time: RE2 for patterns, linear format checks, and patterns
// RE2 cannot express refused with their place named.
import { fullFormats } from 'ajv-formats/dist/formats'
import { describe, expect, it } from 'vitest'
import { normalizeTools } from '@/lib/discovery/mcp/normalize-tools'
import { validateArguments } from '@/lib/gateway/validate-args'
import { checkToolJsonSchema } from '@/lib/manifests/json-schema'
import { createUntrustedAjv, nonLinearPatterns } from '@/lib/manifests/untrusted-ajv'
import { searchesDuring } from '../support/pattern-engines'

describe('schema patterns', () => {
  it('are searched by RE2, never by the backtracking engine, so the ReDoS case answers at once', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } }
    expect(validateArguments(schema, { name: 'aaaa' })).toEqual([])
    // Observed on a short input first, so a backtracking build fails here instead of hanging below.
    const short = searchesDuring(() => validateArguments(schema, { name: 'aaaa!' }))
    expect(short.value).toEqual([expect.objectContaining({ path: '/name', rule: 'pattern' })])
    expect(short.searchedWith('^(a+)+$')).toEqual(['RE2'])
    // 2^34 backtracking steps, then 200,000 characters: answered only because the engine is linear.
    const exact = searchesDuring(() => validateArguments(schema, { name: `${'a'.repeat(34)}!` }))
    expect(exact.value).toEqual([expect.objectContaining({ path: '/name', rule: 'pattern' })])
    expect(exact.searchedWith('^(a+)+$')).toEqual(['RE2'])
    const long = searchesDuring(() => validateArguments(schema, { name: `${'a'.repeat(200_000)}!` }))
    expect(long.value[0].rule).toBe('pattern')
    expect(long.searchedWith('^(a+)+$')).toEqual(['RE2'])
  })

  it('keep their meaning: search anywhere, anchors, classes, flags, named groups, patternProperties', () => {
    const ajv = createUntrustedAjv()
    const validate = ajv.compile({
      type: 'object',
      properties: { a: { pattern: 'b+c' }, b: { pattern: '^\\d{3}-[A-Z]{2}$' }, c: { pattern: '^(?<word>\\w+)\\s' }, d: { pattern: '^\\u00e9$' } },
      patternProperties: { '^x-': { type: 'number' } },
    })
    expect(validate({ a: 'abbbcd', b: '123-AB', d: 'é', 'x-1': 1 })).toBe(true)
    expect(validate({ a: 'ac' })).toBe(false)
    expect(validate({ b: '123-AB\n' })).toBe(false)
    expect(validate({ 'x-1': 'not a number' })).toBe(false)
    // two patterns in one schema are two patterns (Ajv keys compiled patterns by their text)
    const two = ajv.compile({ type: 'object', properties: { p: { pattern: '^p$' }, q: { pattern: '^q$' } } })
    expect(two({ p: 'p', q: 'q' })).toBe(true)
    expect(two({ p: 'q', q: 'q' })).toBe(false)
  })

  it('that RE2 cannot run are refused with the place named, at apply and at discovery', () => {
    const backref = { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } }
    expect(checkToolJsonSchema(backref, { requireObjectRoot: true })).toEqual([
      expect.stringMatching(/^\/properties\/code\/pattern: pattern "\^\(a\)\\\\1\$" cannot run in linear time/),
    ])
    const lookahead = { type: 'object', patternProperties: { '^(?=x)': {} }, properties: { default: { pattern: '(?!a)' } }, default: { pattern: '(a)\\1' } }
    expect(nonLinearPatterns(lookahead).map((p) => p.path)).toEqual(['/patternProperties/^(?=x)', '/properties/default/pattern'])
    // and validation never falls back to the backtracking engine for a stored schema
    expect(validateArguments(backref, { code: 'aa' })[0]).toMatchObject({ path: '(schema)', rule: 'schema' })

    const { tools, refused } = normalizeTools([
      { name: 'ok', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^[a-z]+$' } } } },
      { name: 'evil', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(?!admin).*$' } } } },
      { name: 'evil_out', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { s: { pattern: '(x+)\\1' } } } },
    ])
    expect(tools.map((t) => t.name)).toEqual(['ok'])
    expect(refused).toEqual([
      {
        name: 'evil',
        reason: expect.stringMatching(
          /^inputSchema invalid JSON Schema: \/properties\/s\/pattern: pattern .* cannot run in linear time.*\(rule json-schema\)$/,
        ),
      },
      { name: 'evil_out', reason: expect.stringMatching(/^outputSchema invalid JSON Schema: \/properties\/s\/pattern/) },
    ])
  })
})

// ajv-formats' own expressions for these two backtrack on the inputs below.
const ajvFormatsExpression = (name: 'url' | 'email') => {
  const format = fullFormats[name]
  if (!(format instanceof RegExp)) throw new Error(`ajv-formats no longer checks ${name} with an expression: revisit this test`)
  return format.source
}
const AJV_FORMATS_URL = ajvFormatsExpression('url')
const AJV_FORMATS_EMAIL = ajvFormatsExpression('email')

describe('formats', () => {
  it('check in linear time, url included (its ajv-formats regex backtracks for minutes)', () => {
    const schema = {
      type: 'object',
      properties: { u: { type: 'string', format: 'url' }, e: { type: 'string', format: 'email' }, h: { type: 'string', format: 'hostname' } },
    }
    expect(validateArguments(schema, { u: 'https://example.org/a?b#c', e: 'a@b.example', h: 'api.example.org' })).toEqual([])
    expect(validateArguments(schema, { u: 'javascript:alert(1)' })[0].rule).toBe('format')
    // ajv-formats' own url and email expressions backtrack: they must never be the ones that run.
    const short = searchesDuring(() => validateArguments(schema, { u: 'http://::', e: 'a.@x', h: 'a-!' }))
    expect(short.value.map((v) => v.rule)).toEqual(['format', 'format', 'format'])
    expect(short.searchedWith(AJV_FORMATS_URL)).toEqual([])
    expect(short.searchedWith(AJV_FORMATS_EMAIL)).toEqual(['RE2'])
    for (const evil of ['http://' + ':'.repeat(200_000), 'http://' + 'a-'.repeat(100_000) + '!', `${'a.'.repeat(100_000)}@x`]) {
      const run = searchesDuring(() => validateArguments(schema, { u: evil, e: evil, h: evil }))
      expect(
        run.value.map((v) => v.rule),
        evil.slice(0, 20),
      ).toContain('format')
      expect(run.searchedWith(AJV_FORMATS_URL), evil.slice(0, 20)).toEqual([])
      expect(run.searchedWith(AJV_FORMATS_EMAIL), evil.slice(0, 20)).toEqual(['RE2'])
    }
  })
})
