// The explainer's starting arguments (lib/client/example-arguments.ts): every required field, from
// the schema's examples, defaults, consts and enums, else a placeholder of its type; nothing optional.
import { describe, expect, it } from 'vitest'
import { exampleArguments, exampleValue } from '@/lib/client/example-arguments'

describe('example arguments', () => {
  it('fill every required field from the schema, optional ones left out', () => {
    const refund = {
      type: 'object',
      required: ['charge', 'amount', 'currency', 'reason', 'notify', 'when', 'lines', 'meta'],
      properties: {
        charge: { type: 'string', examples: ['ch_3Nd1'] },
        amount: { type: 'integer', minimum: 1 },
        currency: { type: 'string', enum: ['EUR', 'USD'] },
        reason: { type: 'string', default: 'requested_by_customer' },
        notify: { type: 'boolean' },
        when: { type: 'string', format: 'date' },
        lines: { type: 'array', minItems: 1, items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string', example: 'SKU-1' } } } },
        meta: { type: 'object', properties: { note: { type: 'string' } } },
        memo: { type: 'string', default: 'optional, so absent' },
      },
    }
    expect(JSON.parse(exampleArguments(refund))).toEqual({
      charge: 'ch_3Nd1',
      amount: 1,
      currency: 'EUR',
      reason: 'requested_by_customer',
      notify: false,
      when: '2026-01-31',
      lines: [{ sku: 'SKU-1' }],
      meta: {},
    })
  })

  it('give {} for a schema with nothing required or no schema, and stop on deep or odd schemas', () => {
    expect(exampleArguments({ type: 'object', properties: { q: { type: 'string' } } })).toBe('{}')
    expect(exampleArguments(undefined)).toBe('{}')
    expect(exampleArguments({ type: 'object', required: 'q' })).toBe('{}')
    expect(exampleValue({ type: ['null', 'number'], exclusiveMinimum: 0 })).toBe(1)
    expect(exampleValue({ anyOf: [{ const: 'a' }, { type: 'number' }] })).toBe('a')
    // A schema nested deeper than anyone writes one is cut, not followed.
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 50; i++) deep = { type: 'object', required: ['x'], properties: { x: deep } }
    expect(JSON.stringify(exampleValue(deep))).toContain('null')
  })
})
