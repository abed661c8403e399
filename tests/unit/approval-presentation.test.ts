import { describe, expect, it } from 'vitest'
import { approvalPresentation, HIGH_RISK_LEVELS } from '@/lib/approvals/approval-defaults'
import { bulkTotals } from '@/lib/approvals/bulk-totals'
import { DEFAULT_SUMMARY_ENTRIES, preview, SUMMARY_VALUE_CHARS, summarizeArguments } from '@/lib/approvals/summarize-arguments'
import { approvalSummary } from '@/lib/manifests/specs/common'
import { sideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'

describe('what approvers see of a request: tool over policy over the default', () => {
  it('marks financial, privileged and code-execution calls high-risk by default, and nothing else', () => {
    expect([...HIGH_RISK_LEVELS].sort()).toEqual(['code_execution', 'financial', 'privileged'])
    expect(approvalPresentation({ level: 'code_execution' }).highRisk).toBe(true)
    expect(approvalPresentation({ level: 'financial' })).toEqual({ summaryFields: null, summarySource: 'default', highRisk: true, highRiskSource: 'default' })
    expect(approvalPresentation({ level: 'communication' }).highRisk).toBe(false)
    expect(approvalPresentation({ level: null }).highRisk).toBe(false)
  })

  it("lets a level's policy mark it high-risk or not, and a tool's summary win over the level's", () => {
    expect(approvalPresentation({ level: 'financial', policyHighRisk: false })).toMatchObject({ highRisk: false, highRiskSource: 'policy' })
    expect(approvalPresentation({ level: 'local_write', policyHighRisk: true })).toMatchObject({ highRisk: true, highRiskSource: 'policy' })
    expect(approvalPresentation({ level: 'financial', toolSummary: ['args.amount'], policySummary: ['args.invoice'] })).toMatchObject({
      summaryFields: ['args.amount'],
      summarySource: 'tool',
    })
    expect(approvalPresentation({ level: 'financial', toolSummary: [], policySummary: ['args.invoice'] })).toMatchObject({
      summaryFields: ['args.invoice'],
      summarySource: 'policy',
    })
  })
})

describe('the argument summary of a queue row', () => {
  const refund = { invoice: 'INV-1', amount: 1250.5, customer: { id: 'cus_9', tags: ['vip'] }, notes: null, urgent: true }

  it('shows the fields a tool or level names, in that order, leaving out those the call lacks', () => {
    expect(summarizeArguments(refund, ['args.amount', 'args.customer.id', 'args.missing', 'args.invoice'])).toEqual([
      { field: 'amount', value: '1250.5' },
      { field: 'customer.id', value: 'cus_9' },
      { field: 'invoice', value: 'INV-1' },
    ])
    expect(summarizeArguments({ lines: [{ sku: 'A' }, { sku: 'B' }] }, ['args.lines.1.sku', 'args.lines.7.sku'])).toEqual([
      { field: 'lines.1.sku', value: 'B' },
    ])
  })

  it('shows the first few arguments, plain values before objects and lists, when nobody chose', () => {
    expect(summarizeArguments(refund, null).map((e) => e.field)).toEqual(['invoice', 'amount', 'notes', 'urgent'])
    expect(summarizeArguments(refund, null)).toHaveLength(DEFAULT_SUMMARY_ENTRIES)
    expect(summarizeArguments({ customer: { id: 'x' } }, undefined)).toEqual([{ field: 'customer', value: '{id: "x"}' }])
  })

  it('shows nothing for arguments that are not an object (the log kept none, or an agent sent a list)', () => {
    for (const args of [null, undefined, 'text', 42, ['a'], true]) expect(summarizeArguments(args, ['args.a'])).toEqual([])
  })

  it('reads own fields only: __proto__ and constructor are plain names, never the prototype chain', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "amount": 1}')
    expect(summarizeArguments(hostile, ['args.__proto__.polluted', 'args.constructor.name', 'args.toString', 'args.amount'])).toEqual([
      { field: '__proto__.polluted', value: 'yes' },
      { field: 'amount', value: '1' },
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('keeps every value to one short line, however long, deep, wide or full of control characters it is', () => {
    const huge = 'x'.repeat(1_000_000)
    expect(preview(huge)).toHaveLength(SUMMARY_VALUE_CHARS + 1)
    expect(preview(huge).endsWith('…')).toBe(true)
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = { d: deep }
    expect(preview(deep).length).toBeLessThanOrEqual(SUMMARY_VALUE_CHARS + 1)
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))
    expect(preview(wide).length).toBeLessThanOrEqual(SUMMARY_VALUE_CHARS + 1)
    expect(preview(Array.from({ length: 1_000_000 }, (_, i) => i)).length).toBeLessThanOrEqual(SUMMARY_VALUE_CHARS + 1)
    expect(preview('line one\nline two\r\n\u0000\u001b[31mred')).toBe('line one line two [31mred')
    expect(preview({ 'a\nb': 'c' })).toBe('{a b: "c"}')
  })

  it('is configured with paths into the arguments, at most 8, each checked at apply', () => {
    expect(approvalSummary.safeParse(['args.amount', 'args.customer.id']).success).toBe(true)
    for (const bad of [
      [],
      ['amount'],
      ['result.token'],
      ['args.'],
      ['args.a b'],
      ['args.a[0]'],
      Array(9).fill('args.a'),
      [`args.${'a.'.repeat(9)}a`],
      ['args.' + 'x'.repeat(300)],
    ])
      expect(approvalSummary.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    expect(sideEffectPolicySpec.safeParse({ level: 'financial', requiresApproval: true, highRisk: 'yes' }).success).toBe(false)
    expect(sideEffectPolicySpec.safeParse({ level: 'financial', requiresApproval: true, highRisk: false, approvalSummary: ['args.amount'] }).success).toBe(true)
  })
})

describe('the totals of a bulk decision', () => {
  const item = (tool: string, level: string | null, summary: Record<string, string>, highRisk = false) => ({
    tool: { id: tool, level },
    summary: Object.entries(summary).map(([field, value]) => ({ field, value })),
    highRisk,
  })

  it('counts requests, high-risk ones, levels and tools', () => {
    const t = bulkTotals([
      item('pay.refund', 'financial', {}, true),
      item('pay.refund', 'financial', {}, true),
      item('chat.post', 'communication', {}),
      item('x.y', null, {}),
    ])
    expect(t).toMatchObject({ count: 4, highRisk: 2 })
    expect(t.byLevel).toEqual([
      { level: 'financial', count: 2 },
      { level: 'communication', count: 1 },
      { level: 'undeclared', count: 1 },
    ])
    expect(t.byTool[0]).toEqual({ toolId: 'pay.refund', count: 2 })
  })

  it('adds up numeric fields exactly, per currency, and never a field that is text anywhere', () => {
    const t = bulkTotals([
      item('pay.refund', 'financial', { amount: '0.1', currency: 'eur', invoice: '17' }),
      item('pay.refund', 'financial', { amount: '0.2', currency: 'EUR', invoice: 'INV-18' }),
      item('pay.refund', 'financial', { amount: '-5', currency: 'usd' }),
      item('pay.refund', 'financial', { amount: '10' }),
    ])
    expect(t.sums).toEqual([
      { field: 'amount', currency: 'EUR', total: '0.3', count: 2 },
      { field: 'amount', currency: 'USD', total: '-5', count: 1 },
      { field: 'amount', currency: null, total: '10', count: 1 },
    ])
  })

  it('does not sum values that only look like numbers in part (1e309, hex, 20 digits)', () => {
    const t = bulkTotals([item('a.b', null, { n: '1e309' }), item('a.b', null, { m: '0x10' }), item('a.b', null, { k: '123456789012345678901' })])
    expect(t.sums).toEqual([])
  })
})
