import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { observeToolConditions, phaseOf, sameConditions, type ToolFacts, withTransitionTimes } from '@/lib/tools/tool-conditions'

const base = { description: 'x', inputSchema: { type: 'object' } }
const rest = (auth?: NonNullable<ToolSpec['endpoint']>['auth']): ToolSpec =>
  ({ ...base, type: 'rest', endpoint: { method: 'GET', url: 'http://127.0.0.1:9/api/{id}', ...(auth ? { auth } : {}) } }) as ToolSpec
const mcp: ToolSpec = { ...base, type: 'mcp', mcpServerRef: { name: 'github' } } as ToolSpec
const facts = (spec: ToolSpec, more: Partial<ToolFacts> = {}): ToolFacts => ({
  namespace: 'ops',
  name: 'ops.lookup',
  spec,
  osToolsEnabled: false,
  recent: { calls: 0, failures: 0 },
  endpoint: { allowed: true, how: '127.0.0.1 is in the outbound allow-list' },
  ...more,
})
const byType = (f: ToolFacts) => Object.fromEntries(observeToolConditions(f).map((c) => [c.type, `${c.status} ${c.reason}`]))
const phase = (f: ToolFacts) => phaseOf(observeToolConditions(f))

describe('Tool conditions', () => {
  it('a REST tool needs its secret, in its own namespace, with the key it names', () => {
    const bearer = rest({ type: 'bearer', secretRef: { name: 'zd', key: 'token' } })
    expect(byType(facts(bearer))).toMatchObject({ SecretAvailable: 'False SecretNotFound' })
    expect(byType(facts(bearer, { secret: { found: true, keys: ['other'] } }))).toMatchObject({ SecretAvailable: 'False SecretKeyMissing' })
    expect(byType(facts(bearer, { secret: { found: true, keys: [] } }))).toMatchObject({ SecretAvailable: 'False SecretEmpty' })
    expect(byType(facts(bearer, { secret: { found: true, keys: ['token'] } }))).toEqual({
      SecretAvailable: 'True SecretFound',
      EndpointAllowed: 'True AllowedByPolicy',
      CallsSucceeding: 'Unknown NoRecentCalls',
    })
    const elsewhere = rest({ type: 'bearer', secretRef: { name: 'finance/stripe' } })
    expect(byType(facts(elsewhere, { secret: { found: true, keys: ['token'] } }))).toMatchObject({ SecretAvailable: 'False SecretOutsideNamespace' })
    expect(byType(facts(rest({ type: 'bearer', secretRef: { name: 'ops/zd' } }), { secret: { found: true, keys: ['a'] } }))).toMatchObject({
      SecretAvailable: 'True SecretFound',
    })
    expect(byType(facts(rest({ type: 'bearer' })))).toMatchObject({ SecretAvailable: 'False NoSecretRef' })
    expect(byType(facts(rest({ type: 'none' })))).not.toHaveProperty('SecretAvailable')
    expect(byType(facts(rest()))).not.toHaveProperty('SecretAvailable')
    expect(phase(facts(bearer))).toBe('Failed')
  })

  it("a REST tool's endpoint must pass the outbound policy", () => {
    expect(byType(facts(rest(), { endpoint: { allowed: false, why: '169.254.169.254 is never allowed' } }))).toMatchObject({
      EndpointAllowed: 'False RefusedByPolicy',
    })
    expect(byType(facts(rest(), { endpoint: { unresolved: 'api.example does not resolve' } }))).toMatchObject({ EndpointAllowed: 'False HostNotResolved' })
    expect(phase(facts(rest(), { endpoint: { unresolved: 'x' } }))).toBe('Failed')
    expect(byType(facts(rest(), { endpoint: { unknown: 'api.example could not be looked up just now (ETIMEOUT)' } }))).toMatchObject({
      EndpointAllowed: 'Unknown DnsUnavailable',
    })
    expect(phase(facts(rest(), { endpoint: { unknown: 'x' } }))).toBe('Degraded')
    expect(byType(facts(rest(), { endpoint: undefined }))).toMatchObject({ EndpointAllowed: 'Unknown NotChecked' })
    expect(phase(facts(rest(), { endpoint: undefined }))).toBe('Degraded')
  })

  it('an MCP tool needs its server found, Ready and listing the tool', () => {
    const server = (phase: string, listsTool = true) => ({
      server: { found: true as const, phase, lastError: 'connection refused', listsTool, upstreamTool: 'lookup' },
    })
    expect(byType(facts(mcp))).toMatchObject({ ServerReady: 'False ServerNotFound' })
    expect(byType(facts(mcp, server('Failed')))).toMatchObject({ ServerReady: 'False ServerFailed' })
    expect(observeToolConditions(facts(mcp, server('Failed')))[0].message).toContain('connection refused')
    expect(byType(facts(mcp, server('Pending')))).toMatchObject({ ServerReady: 'Unknown ServerPending' })
    expect(phase(facts(mcp, server('Pending')))).toBe('Degraded')
    expect(byType(facts(mcp, server('Ready', false)))).toMatchObject({ ServerReady: 'False ToolNotListed' })
    expect(byType(facts(mcp, server('Ready')))).toEqual({ ServerReady: 'True ServerReady', CallsSucceeding: 'Unknown NoRecentCalls' })
    expect(phase(facts(mcp, server('Ready')))).toBe('Ready')
  })

  it('an os tool runs only where os tools are enabled', () => {
    const os = { ...base, type: 'os', command: { argv: ['true'] } } as ToolSpec
    expect(byType(facts(os))).toMatchObject({ Runnable: 'False OsToolsDisabled' })
    expect(byType(facts(os, { osToolsEnabled: true }))).toMatchObject({ Runnable: 'True OsToolsEnabled' })
  })

  it('recent calls that mostly fail degrade a tool; a few failures say too little', () => {
    const fn = { ...base, type: 'function' } as ToolSpec
    expect(byType(facts(fn, { recent: { calls: 9, failures: 9 } }))).toEqual({ CallsSucceeding: 'Unknown FewRecentCalls' })
    expect(byType(facts(fn, { recent: { calls: 9, failures: 1 } }))).toEqual({ CallsSucceeding: 'True FewRecentCalls' })
    expect(byType(facts(fn, { recent: { calls: 10, failures: 4 } }))).toEqual({ CallsSucceeding: 'True FailureRateLow' })
    expect(byType(facts(fn, { recent: { calls: 10, failures: 5 } }))).toEqual({ CallsSucceeding: 'False HighFailureRate' })
    expect(observeToolConditions(facts(fn, { recent: { calls: 20, failures: 15 } }))[0].message).toBe('15 of 20 calls failed in the last 2 hours (75 %)')
    expect(phase(facts(fn, { recent: { calls: 10, failures: 5 } }))).toBe('Degraded')
    // A tool that cannot be called at all is Failed, however its calls went.
    expect(phase(facts(rest({ type: 'bearer' }), { recent: { calls: 10, failures: 10 } }))).toBe('Failed')
  })

  it('a tool nobody called lately does not claim its calls succeed (a Failed one least of all)', () => {
    const failed = facts(rest({ type: 'bearer' }))
    expect(phase(failed)).toBe('Failed')
    expect(byType(failed).CallsSucceeding).toBe('Unknown NoRecentCalls')
    // Unknown here says nothing about the phase: an uncalled tool whose needs hold is Ready.
    expect(phase(facts(rest()))).toBe('Ready')
  })

  it('keeps a condition’s transition time while its status holds, and moves it when it flips', () => {
    const t0 = new Date('2026-11-24T10:00:00Z')
    const t1 = new Date('2026-11-24T11:00:00Z')
    const fn = { ...base, type: 'function' } as ToolSpec
    const first = withTransitionTimes(observeToolConditions(facts(fn, { recent: { calls: 2, failures: 0 } })), [], t0)
    expect(first[0].lastTransitionTime).toBe(t0.toISOString())
    const sameStatus = withTransitionTimes(observeToolConditions(facts(fn, { recent: { calls: 4, failures: 1 } })), first, t1)
    expect(sameStatus[0].lastTransitionTime).toBe(t0.toISOString())
    expect(sameConditions(first, sameStatus)).toBe(false) // the message moved
    const flipped = withTransitionTimes(observeToolConditions(facts(fn, { recent: { calls: 12, failures: 12 } })), sameStatus, t1)
    expect(flipped[0].lastTransitionTime).toBe(t1.toISOString())
    expect(sameConditions(flipped, withTransitionTimes(observeToolConditions(facts(fn, { recent: { calls: 12, failures: 12 } })), flipped, t1))).toBe(true)
  })
})
