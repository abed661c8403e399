// The explainer's pure parts: the candidates of a name read off the resolver (who won, who was
// shadowed, who never competed), the gateway checks it shares with the pipeline, and fix drafts
// (whole manifests with one field changed, which the manifest validator still accepts).
import fc from 'fast-check'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { catalogToolsFromMcp } from '@/lib/effective-tools/catalog-tools'
import { agentAllowed } from '@/lib/effective-tools/allowed-agents'
import { reservedDenialOf, resolveEffectiveTools, safetyDenialOf } from '@/lib/effective-tools/resolve-effective-tools'
import type { CatalogTool, ResolverInput } from '@/lib/effective-tools/types'
import { fixDraftHref, bindConnectorDraft, draftOf, enableToggleDraft, grantDraft, withAgentAllowed, withoutDeniedNamespace } from '@/lib/explain/fix-drafts'
import { traceCandidates } from '@/lib/explain/trace-candidates'
import { unwrapCallTool, callKeyOf, executorRefusal, keyRefusal, unavailableRefusal, unknownToolRefusal } from '@/lib/gateway/call-checks'
import { validateDocument } from '@/lib/manifests/validate-document'
import { catalogTool } from '../support/catalog-tool'

function input(over: Partial<ResolverInput> & { connectorSlugs?: Set<string> } = {}): ResolverInput {
  return {
    subject: { kind: 'Agent', name: 'bot', namespace: 'default', imageTools: [], imageDigest: null },
    ancestors: [],
    platformTools: [],
    connectorTools: new Map(),
    languageToolTools: new Map(),
    grantedTools: new Map(),
    connectorSlugs: new Set(),
    policies: new Map(),
    ...over,
  }
}

const trace = (i: ResolverInput, name: string) => {
  const set = resolveEffectiveTools(i)
  return traceCandidates(
    [...set.tools, ...set.excluded].filter((e) => e.name === name),
    (e) => e.state === 'denied' && reservedDenialOf(e.name, e.tier, i.connectorSlugs) !== null,
  )
}

describe('candidates of a name', () => {
  const granted = catalogTool({ name: 'acme.search' })
  const fromServer = catalogToolsFromMcp('acme', { name: 'acme', namespace: 'default' }, [{ name: 'search', description: 'upstream' }], {
    kind: 'LanguageTool',
    name: 'acme',
    namespace: 'default',
  })

  it('puts the winner first with why it won, then what it shadowed', () => {
    const t = trace(
      input({
        subject: { kind: 'Agent', name: 'bot', namespace: 'default', imageTools: [], imageDigest: null, grants: ['acme.search'], languageTools: ['acme'] },
        grantedTools: new Map([['default/acme.search', granted]]),
        languageToolTools: new Map([['acme', fromServer]]),
      }),
      'acme.search',
    )
    expect(t.map((c) => [c.role, c.entry.tier, c.entry.state])).toEqual([
      ['winner', 'grant', 'enabled'],
      ['shadowed', 'mcp', 'shadowed'],
    ])
    expect(t[0].why).toMatch(/wins acme\.search over 1 other source: grant ranks highest \(grant > connector > platform > mcp > image/)
    expect(t[1].why).toMatch(/shadowed by grant/)
  })

  it('tells a squatter of a reserved namespace (never competed) from a winner denied by safety, which still shadows', () => {
    const listed = catalogTool({ name: 'acme.search', allowedAgents: ['someone-else'] })
    const t = trace(
      input({
        subject: { kind: 'Agent', name: 'bot', namespace: 'default', imageTools: [], imageDigest: null, connectors: ['acme'], languageTools: ['acme'] },
        connectorTools: new Map([['acme', [listed]]]),
        languageToolTools: new Map([['acme', fromServer]]),
        connectorSlugs: new Set(['acme']),
      }),
      'acme.search',
    )
    expect(t.map((c) => [c.role, c.entry.tier, c.entry.state])).toEqual([
      ['winner', 'connector', 'denied'],
      ['reserved', 'mcp', 'denied'],
    ])
    expect(t[0].why).toMatch(/still shadows the others/)
    expect(t[1].why).toMatch(/^never competed: "acme\.\*" is reserved for connector "acme"/)
  })

  it('has no winner when every source of the name squats a reserved namespace', () => {
    const t = trace(
      input({
        subject: { kind: 'Agent', name: 'bot', namespace: 'default', imageTools: [], imageDigest: null, languageTools: ['acme'] },
        languageToolTools: new Map([['acme', fromServer]]),
        connectorSlugs: new Set(['acme']),
      }),
      'acme.search',
    )
    expect(t.map((c) => c.role)).toEqual(['reserved'])
  })

  it('always has exactly one winner among competing candidates (property)', () => {
    const tiers = fc.constantFrom('grant', 'mcp', 'connector')
    fc.assert(
      fc.property(fc.array(tiers, { minLength: 1, maxLength: 4 }), fc.boolean(), (chosen, reservedSlug) => {
        const subject: ResolverInput['subject'] = {
          kind: 'Agent',
          name: 'bot',
          namespace: 'default',
          imageTools: [],
          imageDigest: null,
          grants: [],
          languageTools: [],
          connectors: [],
        }
        const grantedTools = new Map<string, CatalogTool>()
        const languageToolTools = new Map<string, CatalogTool[]>()
        const connectorTools = new Map<string, CatalogTool[]>()
        chosen.forEach((tier, i) => {
          if (tier === 'grant') {
            grantedTools.set(`ns${i}/acme.search`, catalogTool({ name: 'acme.search', namespace: `ns${i}` }))
            subject.grants!.push(`ns${i}/acme.search`)
          } else if (tier === 'mcp') {
            languageToolTools.set(
              `s${i}`,
              catalogToolsFromMcp('acme', { name: `s${i}`, namespace: 'default' }, [{ name: 'search' }], {
                kind: 'LanguageTool',
                name: `s${i}`,
                namespace: 'default',
              }),
            )
            subject.languageTools!.push(`s${i}`)
          } else {
            connectorTools.set(`c${i}`, [catalogTool({ name: 'acme.search', namespace: `c${i}` })])
            subject.connectors!.push(`c${i}`)
          }
        })
        const slugs = new Set([...connectorTools.keys(), ...(reservedSlug ? ['acme'] : [])])
        const t = trace(input({ subject, grantedTools, languageToolTools, connectorTools, connectorSlugs: slugs }), 'acme.search')
        const competing = t.filter((c) => c.role !== 'reserved')
        expect(t).toHaveLength(chosen.length)
        expect(competing.filter((c) => c.role === 'winner')).toHaveLength(competing.length > 0 ? 1 : 0)
        if (competing.length > 0) expect(t[0].role).toBe('winner')
      }),
    )
  })
})

describe('the gateway checks the explainer shares', () => {
  it('open toolroom.call_tool as a door to the named tool, and refuse it without a name', () => {
    const door = { name: 'toolroom.call_tool' } as never
    expect(unwrapCallTool(door, { name: 'a.b', arguments: { x: 1 }, idempotencyKey: 'k' }, undefined)).toEqual({ name: 'a.b', args: { x: 1 }, callerKey: 'k' })
    expect(unwrapCallTool(door, { name: 'a.b' }, 'outer')).toEqual({ name: 'a.b', args: {}, callerKey: 'outer' })
    expect(unwrapCallTool(door, { name: 'toolroom.call_tool' }, undefined)).toEqual({ error: expect.stringMatching(/needs "name"/) })
    expect(unwrapCallTool(door, {}, undefined)).toEqual({ error: expect.any(String) })
    expect(unwrapCallTool({ name: 'a.b' } as never, {}, undefined)).toBeNull()
  })

  it('name the reason and code of each refusal', () => {
    expect(unknownToolRefusal('x'.repeat(1000)).message.length).toBeLessThan(260)
    expect(unavailableRefusal({ name: 't.x', state: 'disabled', reason: 'disabled by a toggle on agent "a"' } as never)).toMatchObject({
      errorCode: 'disabled',
      rpcCode: -32602,
    })
    expect(unavailableRefusal({ name: 't.x', state: 'denied', reason: 'agent "a/b" is not in safety.allowedAgents of t.x' } as never).errorCode).toBe('safety')
    expect(executorRefusal({ kind: 'os', command: { argv: ['x'] } }, false)).toMatchObject({ errorCode: 'os_tools_disabled' })
    expect(executorRefusal({ kind: 'os', command: { argv: ['x'] } }, true)).toBeNull()
    expect(executorRefusal({ kind: 'none', reason: 'runs in the agent' }, true)).toMatchObject({ errorCode: 'not_executable', message: 'runs in the agent' })
    expect(keyRefusal('')).toMatchObject({ errorCode: 'idempotency_key' })
    expect(keyRefusal('k'.repeat(513))).toMatchObject({ errorCode: 'idempotency_key' })
    expect(keyRefusal('a\u0000b')?.message).toMatch(/NUL/)
    expect(keyRefusal('fine')).toBeNull()
    expect(callKeyOf('mine', 'x-{{ args.a }}', { a: 1 })).toBe('mine')
    expect(callKeyOf(undefined, 'x-{{ args.a }}', { a: 1 })).toBe('x-1')
    expect(callKeyOf(undefined, undefined, { a: 1 })).toBeNull()
  })
})

describe('fix drafts', () => {
  const agent = {
    apiVersion: 'toolroom.dev/v1alpha1',
    kind: 'Agent',
    metadata: { name: 'bot', namespace: 'ops', labels: { team: 'x' }, annotations: {} },
    spec: { unit: 'team', grants: ['a.b'], toggles: { 'c.d': false } },
  }
  const tool = {
    apiVersion: 'toolroom.dev/v1alpha1',
    kind: 'Tool',
    metadata: { name: 'pay.charge', namespace: 'finance', labels: {}, annotations: {} },
    spec: {
      type: 'function',
      description: 'Charges',
      inputSchema: { type: 'object' },
      safety: { allowedAgents: ['clerk'], deniedNamespaces: ['ops', 'lab'], rateLimit: { callsPerMinute: 3 } },
    },
  }
  const valid = (yamlText: string) => validateDocument(parse(yamlText), 0)

  it('are whole manifests that still validate, with exactly the one change', () => {
    const toggle = enableToggleDraft(agent, 'c.d')
    expect(parse(toggle.yaml)).toEqual({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Agent',
      metadata: { name: 'bot', namespace: 'ops', labels: { team: 'x' } },
      spec: { unit: 'team', grants: ['a.b'], toggles: { 'c.d': true } },
    })
    expect(valid(toggle.yaml).errors).toEqual([])

    const grant = grantDraft(agent, { namespace: 'finance', name: 'pay.charge' })
    expect(parse(grant.yaml).spec.grants).toEqual(['a.b', 'finance/pay.charge'])
    expect(parse(grantDraft(agent, { namespace: 'ops', name: 'x.y' }).yaml).spec.grants).toEqual(['a.b', 'x.y'])
    expect(parse(bindConnectorDraft(agent, 'github').yaml).spec.connectors).toEqual(['github'])
    expect(valid(grant.yaml).errors).toEqual([])

    const allowed = draftOf(tool, withAgentAllowed(tool.spec, 'finance', { namespace: 'ops', name: 'bot' }), 'allowedAgents', 'allow ops/bot')
    expect(parse(allowed.yaml).spec.safety).toEqual({ allowedAgents: ['clerk', 'ops/bot'], deniedNamespaces: ['ops', 'lab'], rateLimit: { callsPerMinute: 3 } })
    expect(valid(allowed.yaml).errors).toEqual([])
    // Drafting never changes the resource it started from.
    expect(tool.spec.safety.allowedAgents).toEqual(['clerk'])
    expect(agent.spec.toggles).toEqual({ 'c.d': false })
  })

  it("fix exactly what the resolver's safety rule refuses (property: after both changes the agent passes)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ops', 'finance', 'lab'),
        fc.constantFrom('bot', 'clerk'),
        fc.array(fc.constantFrom('clerk', 'ops/bot', 'lab/*', 'finance/clerk'), { maxLength: 3 }),
        fc.array(fc.constantFrom('ops', 'lab'), { maxLength: 2 }),
        (namespace, name, allowedAgents, deniedNamespaces) => {
          const who = { kind: 'Agent' as const, namespace, name }
          let spec: unknown = { safety: { allowedAgents, deniedNamespaces } }
          const safety = () => (spec as { safety?: { allowedAgents?: string[]; deniedNamespaces?: string[] } }).safety
          for (let i = 0; i < 2; i++) {
            const denial = safetyDenialOf(
              { name: 'pay.charge', namespace: 'finance', allowedAgents: safety()?.allowedAgents, deniedNamespaces: safety()?.deniedNamespaces },
              who,
            )
            if (!denial) break
            spec = denial.rule === 'deniedNamespaces' ? withoutDeniedNamespace(spec, namespace) : withAgentAllowed(spec, 'finance', who)
          }
          expect(
            safetyDenialOf(
              { name: 'pay.charge', namespace: 'finance', allowedAgents: safety()?.allowedAgents, deniedNamespaces: safety()?.deniedNamespaces },
              who,
            ),
          ).toBeNull()
          expect(agentAllowed(safety()?.allowedAgents, 'finance', who)).toBe(true)
        },
      ),
    )
  })

  it('open on the Apply page with the draft as its text', () => {
    expect(fixDraftHref({ yaml: 'kind: Agent\nspec: {a: "&?#"}\n' })).toBe('/apply?draft=kind%3A%20Agent%0Aspec%3A%20%7Ba%3A%20%22%26%3F%23%22%7D%0A')
  })
})
