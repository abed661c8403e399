// How a held call reads to an approver: money in the currency's own decimals, sizes and durations,
// links the Tool declares, what an absent argument means, and templates that can only print, over
// arguments as hostile as any agent sends (docs/design/approvals.md#summaries).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { approvalSpecProblems, renderSummaryTemplate, SUMMARY_LINE_CHARS } from '@/lib/approvals/approval-template'
import { formatBytes, formatDuration, formatMoney } from '@/lib/approvals/format-units'
import { renderApprovalReading } from '@/lib/approvals/render-approval-summary'
import type { FieldError } from '@/lib/errors/app-error'
import { readManifest } from '@/lib/manifests/parse-manifest'
import { validateDocument } from '@/lib/manifests/validate-document'

const refundSchema = {
  type: 'object',
  properties: {
    charge: { type: 'string', title: 'Charge' },
    amount: { type: 'integer', title: 'Amount', description: 'In minor units; absent refunds the whole charge' },
    currency: { type: 'string' },
    ticketId: { type: 'string' },
    reason: { type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
  },
  required: ['charge', 'currency'],
  additionalProperties: false,
}
const refundApproval = {
  summary: 'Refund {{ amount | money: currency }} on {{ charge }}',
  fields: {
    amount: { unit: 'minor_currency' as const, currencyField: 'currency', absent: 'full refund' },
    ticketId: { label: 'Ticket', link: 'https://support.example.com/tickets/{{ ticketId }}' },
  },
}
const read = (args: unknown, approval: typeof refundApproval | null = refundApproval) =>
  renderApprovalReading({ args, inputSchema: refundSchema, description: 'Refunds a Stripe charge.', approval })

describe('units', () => {
  it("shows minor currency units with the currency's own decimals", () => {
    expect(formatMoney(1250000, 'EUR')).toBe('€12,500.00')
    expect(formatMoney(1250000, 'JPY')).toBe('¥1,250,000')
    expect(formatMoney(1250000, 'KWD')).toBe('KWD\u00a01,250.000')
    expect(formatMoney(1999, 'usd')).toBe('$19.99')
    expect(formatMoney(-5, 'EUR')).toBe('-€0.05')
  })

  it('leaves what is not an amount in a currency to the plain preview', () => {
    for (const [amount, currency] of [
      [12.5, 'EUR'],
      [Number.MAX_VALUE, 'EUR'],
      ['12', 'EURO'],
      [100, 'ZZZ<script>'],
      [100, { toString: () => 'EUR' }],
      [{ valueOf: () => 3 }, 'EUR'],
      [100, undefined],
    ] as Array<[unknown, unknown]>)
      expect(formatMoney(amount, currency)).toBeNull()
  })

  it('shows sizes and durations as people say them', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GiB')
    expect(formatDuration(90)).toBe('1 min 30 s')
    expect(formatDuration(3600)).toBe('1 h')
    expect(formatDuration(2 * 86400 + 4 * 3600 + 5)).toBe('2 d 4 h')
    expect(formatDuration(1500, 'milliseconds')).toBe('1.5 s')
    expect(formatDuration(-1)).toBeNull()
  })
})

describe("a Tool's summary template", () => {
  it('says what the refund will do, in the currency of the call', () => {
    expect(read({ charge: 'ch_1', amount: 1250000, currency: 'EUR' }).line).toBe('Refund €12,500.00 on ch_1')
    expect(read({ charge: 'ch_1', amount: 1250000, currency: 'JPY' }).line).toBe('Refund ¥1,250,000 on ch_1')
    expect(read({ charge: 'ch_1', amount: 1250000, currency: 'KWD' }).line).toBe('Refund KWD\u00a01,250.000 on ch_1')
  })

  it('says what an absent optional argument means, in the line and in the entries', () => {
    const reading = read({ charge: 'ch_1', currency: 'EUR' })
    expect(reading).toMatchObject({ line: 'Refund full refund on ch_1', source: 'template', description: 'Refunds a Stripe charge.' })
    expect(reading.entries).toContainEqual({ field: 'amount', label: 'Amount', value: 'full refund', absent: true })
    const conditional = renderApprovalReading({
      args: { charge: 'ch_1', currency: 'EUR' },
      inputSchema: refundSchema,
      approval: { ...refundApproval, summary: '{% if amount %}Refund {{ amount }}{% else %}Refund all{% endif %} of {{ charge }}' },
    })
    expect(conditional.line).toBe('Refund all of ch_1')
  })

  it('shows a declared unit wherever the field is printed, and the raw value to conditions', () => {
    const reading = renderApprovalReading({
      args: { charge: 'ch_1', amount: 90000, currency: 'EUR' },
      inputSchema: refundSchema,
      approval: { ...refundApproval, summary: '{{ amount }}{% if amount > 50000 %} (large){% endif %}' },
    })
    expect(reading.line).toBe('€900.00 (large)')
    expect(reading.entries.find((e) => e.field === 'amount')).toMatchObject({ value: '€900.00', label: 'Amount' })
  })

  it('links the ticket, the value URL-encoded so it cannot change where the link points', () => {
    expect(read({ charge: 'ch_1', currency: 'EUR', ticketId: 'T-42' }).entries.find((e) => e.field === 'ticketId')).toMatchObject({
      label: 'Ticket',
      value: 'T-42',
      href: 'https://support.example.com/tickets/T-42',
    })
    const hostile = read({ charge: 'ch_1', currency: 'EUR', ticketId: '../../admin?x=1#@evil.example' })
    expect(new URL(hostile.entries.find((e) => e.field === 'ticketId')!.href!).host).toBe('support.example.com')
    expect(hostile.entries.find((e) => e.field === 'ticketId')!.href).toBe('https://support.example.com/tickets/..%2F..%2Fadmin%3Fx%3D1%23%40evil.example')
  })

  it('prints template syntax inside values as text, never evaluating it', () => {
    for (const charge of ['{{ amount }}', '{% if true %}x{% endif %}', '{{ "a" | append: "b" }}'])
      expect(read({ charge, amount: 100, currency: 'EUR' }).line).toBe(`Refund €1.00 on ${charge}`)
  })

  it('reads own properties only: __proto__, constructor and prototype methods print nothing', () => {
    const args = JSON.parse('{"charge": {"__proto__": {"polluted": "yes"}}, "currency": "EUR"}')
    const line = (summary: string) => renderApprovalReading({ args, inputSchema: { type: 'object' }, approval: { summary } }).line
    expect(line('[{{ charge.__proto__.polluted }}]')).toBe('[yes]')
    expect(line('[{{ charge.constructor }}{{ charge.toString }}{{ constructor.name }}]')).toBe('[]')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('keeps hostile values bounded: huge strings, deep and wide objects, control characters', () => {
    const deep = JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500))
    const args = {
      charge: 'x'.repeat(5_000_000),
      currency: 'EUR',
      amount: 1,
      nested: deep,
      wide: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
    }
    const reading = renderApprovalReading({ args, inputSchema: { type: 'object' }, approval: { summary: '{{ charge }}\n{{ nested }} {{ wide }}' } })
    expect(reading.line.length).toBeLessThanOrEqual(SUMMARY_LINE_CHARS)
    expect(reading.line).not.toMatch(/[\n\r\u0000-\u001f]/)
    for (const entry of reading.entries) expect(entry.value.length).toBeLessThanOrEqual(81)
  })

  it('falls back to the schema line when a render hits its limits', () => {
    expect(renderSummaryTemplate('{{ a }}', { a: 'ok' })).toBe('ok')
    const many = '{% if a %}{{ a }}{% endif %}'.repeat(17)
    expect(renderSummaryTemplate(many, { a: 'y'.repeat(200) })!.length).toBeLessThanOrEqual(SUMMARY_LINE_CHARS)
  })

  it('renders every argument object to a bounded single line (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.constantFrom('{{ charge }} {{ amount | money: currency }}', '{{ a | bytes }} {{ b | duration: "ms" }} {{ c | default: "none" }}'),
        (args, summary) => {
          const reading = renderApprovalReading({ args, inputSchema: { type: 'object' }, approval: { summary } })
          expect(reading.line.length).toBeLessThanOrEqual(SUMMARY_LINE_CHARS)
          expect(reading.line).not.toMatch(/[\u0000-\u001f]/)
          for (const entry of reading.entries) expect(entry.value.length).toBeLessThanOrEqual(81)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('tools without a template', () => {
  it('read from the schema: titles as labels, declared units, absent meanings', () => {
    const reading = read({ charge: 'ch_1', amount: 1250000, currency: 'EUR' }, { ...refundApproval, summary: undefined } as never)
    expect(reading.source).toBe('schema')
    expect(reading.line).toBe('Charge: ch_1 · Amount: €12,500.00 · currency: EUR')
  })

  it('keep every argument the tool or level chose, then what the absent ones mean', () => {
    const reading = renderApprovalReading({
      args: { a: 1, b: 2, c: 3, d: 4, e: 5 },
      inputSchema: { type: 'object' },
      summaryFields: ['args.a', 'args.b', 'args.c', 'args.d', 'args.e'],
      approval: { fields: { f: { absent: 'none' } } },
    })
    expect(reading.entries.map((e) => e.field)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
  })

  it('read a date-time in UTC, and say so when a call has no arguments', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', format: 'date-time', title: 'When' } } }
    expect(renderApprovalReading({ args: { at: '2026-11-27T18:30:00+01:00' }, inputSchema: schema }).line).toBe('When: 2026-11-27 17:30 UTC')
    expect(renderApprovalReading({ args: {}, inputSchema: schema }).line).toBe('no arguments')
  })
})

describe('the template is checked at apply against the input schema', () => {
  it('names an unknown argument with its place in the template', () => {
    expect(approvalSpecProblems({ summary: 'Refund {{ amout | money: currency }}' }, refundSchema)).toEqual([
      {
        path: ['summary'],
        rule: 'template-unknown-argument',
        message: 'at 1:11: amout is not an argument of the tool (it has: charge, amount, currency, ticketId, reason)',
      },
    ])
  })

  it('refuses filters and tags beyond ours: no includes, loops or assignments', () => {
    for (const summary of [
      '{{ charge | upcase }}',
      '{% include "x" %}',
      '{% render "x" %}',
      '{% for c in charge %}{% endfor %}',
      '{% assign x = 1 %}',
      '{% layout "x" %}',
    ])
      expect(
        approvalSpecProblems({ summary }, refundSchema).map((p) => p.rule),
        summary,
      ).toEqual(['template'])
    expect(approvalSpecProblems({ summary: '{{ charge | upcase }}' }, refundSchema)[0].message).toMatch(
      /upcase is not a filter \(use money, bytes, duration, default\)/,
    )
  })

  it('refuses links whose scheme or host an argument could choose, and fields the tool lacks', () => {
    const problems = approvalSpecProblems(
      {
        fields: {
          ticketId: { link: '{{ ticketId }}' },
          charge: { link: 'javascript:alert(1)//{{ charge }}' },
          reason: { link: 'https://{{ reason }}.example.com/' },
          amout: { unit: 'minor_currency' },
        },
      },
      refundSchema,
    )
    expect(problems.map((p) => [p.path.join('.'), p.rule])).toEqual([
      ['fields.ticketId.link', 'link'],
      ['fields.charge.link', 'link'],
      ['fields.reason.link', 'link'],
      ['fields.amout', 'unknown-argument'],
      ['fields.amout.unit', 'currency'],
    ])
  })

  it('reports the problem at its line and column in the manifest', () => {
    const text = [
      'apiVersion: toolroom.dev/v1alpha1',
      'kind: Tool',
      'metadata: {name: stripe.create_refund, namespace: finance}',
      'spec:',
      '  type: function',
      '  description: Refunds a charge',
      '  inputSchema: {type: object, properties: {amount: {type: integer}, currency: {type: string}}}',
      '  approval:',
      '    summary: "Refund {{ amout | money: currency }}"',
    ].join('\n')
    const manifest = readManifest(text)
    const errors: FieldError[] = []
    for (const { index, value } of manifest.documents) errors.push(...validateDocument(value, index).errors)
    const [error] = manifest.locate(errors)
    expect(error).toMatchObject({ field: 'spec.approval.summary', rule: 'template-unknown-argument', line: 9 })
    expect(error.message).toMatch(/at 1:11: amout is not an argument/)
  })
})
