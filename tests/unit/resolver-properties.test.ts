// Property tests of the effective-tools resolver (README "How references and precedence work"): over
// random fleets with colliding names, reserved namespaces, toggles and safety rules, the answer is
// deterministic, listed in tier order, has one winner per name chosen by grant > connector > platform
// > mcp > image, and a winner that safety denies is never replaced by a less governed source.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inputForName, resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { CatalogTool, EffectiveTool, ResolverInput, Tier } from '@/lib/effective-tools/types'
import { catalogTool } from '../support/catalog-tool'

// Few names, so sources collide often; `toolroom.*` and the connector slugs are reserved namespaces.
const NAMES = ['toolroom.list_tools', 'crm.find', 'crm.update', 'mail.send', 'acme.echo', 'acme.search']
const SLUGS = ['crm', 'mail']
const NAMESPACES = ['default', 'finance', 'ops']

const toolArb = (sourceKind: CatalogTool['source']['kind']) =>
  fc
    .record({
      name: fc.constantFrom(...NAMES),
      namespace: fc.constantFrom(...NAMESPACES),
      deniedNamespaces: fc.option(fc.subarray(NAMESPACES, { minLength: 1 }), { nil: undefined }),
      allowedAgents: fc.option(fc.subarray(['bot', 'other', 'default/bot', 'ops/bot', 'ops/*', 'default/*'], { minLength: 1 }), { nil: undefined }),
      requiresApproval: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(({ name, namespace, deniedNamespaces, allowedAgents, requiresApproval }) =>
      catalogTool({
        name,
        namespace,
        description: `${name} from ${sourceKind}`,
        source: { kind: sourceKind, name, namespace },
        ...(deniedNamespaces ? { deniedNamespaces } : {}),
        ...(allowedAgents ? { allowedAgents } : {}),
        ...(requiresApproval !== undefined ? { requiresApproval } : {}),
      }),
    )

const bindingsArb = fc.record({
  connectors: fc.subarray([...SLUGS, 'missing']),
  grants: fc.subarray(['g1', 'g2', 'g3', 'finance/g1', 'nope']),
  toggles: fc.dictionary(fc.constantFrom(...NAMES), fc.boolean(), { maxKeys: 3 }),
})

const inputArb: fc.Arbitrary<ResolverInput> = fc
  .record({
    kind: fc.constantFrom('Agent' as const, 'Unit' as const),
    namespace: fc.constantFrom(...NAMESPACES),
    own: bindingsArb,
    ancestors: fc.array(fc.record({ name: fc.constantFrom('u1', 'u2', 'u3'), namespace: fc.constantFrom(...NAMESPACES), bindings: bindingsArb }), {
      maxLength: 3,
    }),
    languageTools: fc.subarray(['srv', 'finance/srv2', 'gone']),
    platform: fc.array(toolArb('Platform'), { maxLength: 3 }),
    image: fc.array(toolArb('Agent'), { maxLength: 4 }),
    connectorTools: fc.record({ crm: fc.array(toolArb('Connector'), { maxLength: 3 }), mail: fc.array(toolArb('Connector'), { maxLength: 3 }) }),
    mcp: fc.record({ srv: fc.array(toolArb('LanguageTool'), { maxLength: 3 }), 'finance/srv2': fc.array(toolArb('LanguageTool'), { maxLength: 3 }) }),
    granted: fc.record({ g1: toolArb('Tool'), g2: toolArb('Tool'), g3: toolArb('Tool') }),
  })
  .map((r) => {
    // Unique descriptions let a test find the catalog entry behind each effective entry.
    let n = 0
    for (const t of [
      ...r.platform,
      ...r.image,
      ...r.connectorTools.crm,
      ...r.connectorTools.mail,
      ...r.mcp.srv,
      ...r.mcp['finance/srv2'],
      ...Object.values(r.granted),
    ])
      t.description = `${t.name} #${n++}`
    const grantedTools = new Map<string, CatalogTool>()
    for (const ns of NAMESPACES) for (const [key, tool] of Object.entries(r.granted)) grantedTools.set(`${ns}/${key}`, tool)
    return {
      subject: { kind: r.kind, name: 'bot', namespace: r.namespace, ...r.own, languageTools: r.languageTools, imageTools: r.image, imageDigest: 'sha256:abc' },
      ancestors: r.ancestors.map((a) => ({ name: a.name, namespace: a.namespace, ...a.bindings })),
      platformTools: r.platform,
      connectorTools: new Map(Object.entries(r.connectorTools)),
      languageToolTools: new Map(Object.entries(r.mcp)),
      grantedTools,
      connectorSlugs: new Set(SLUGS),
      policies: new Map(),
    }
  })

/** Denied for using a reserved namespace it does not own: such an entry never competed for the name. */
const reservedDenial = (e: EffectiveTool) => e.state === 'denied' && /is reserved for/.test(e.reason ?? '')
// Written out here rather than read from the resolver's table, so a change to the table fails these tests.
const PRECEDENCE: Record<Tier, number> = { grant: 5, connector: 4, platform: 3, mcp: 2, image: 1 }
const LISTING_ORDER: Tier[] = ['platform', 'connector', 'image', 'mcp', 'grant']
const competitors = (entries: EffectiveTool[], name: string) => entries.filter((e) => e.name === name && !reservedDenial(e))

describe('effective-tools resolver properties', { timeout: 60_000 }, () => {
  it('is deterministic: the same input gives the same entries in the same order', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(resolveEffectiveTools(input)).toEqual(resolveEffectiveTools(input))
      }),
      { numRuns: 300 },
    )
  })

  it('resolves a name alike from only its own sources (inputForName) as from the whole input', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom(...NAMES), (input, name) => {
        const whole = resolveEffectiveTools(input)
        const alone = resolveEffectiveTools(inputForName(input, name))
        const of = (set: ReturnType<typeof resolveEffectiveTools>) => [...set.tools, ...set.excluded].filter((e) => e.name === name)
        expect(of(alone)).toEqual(of(whole))
      }),
      { numRuns: 500 },
    )
  })

  it('lists entries in tier order: platform, connector, image, mcp, grant', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { tools } = resolveEffectiveTools(input)
        const order = tools.map((t) => LISTING_ORDER.indexOf(t.tier))
        expect(order).toEqual([...order].sort((a, b) => a - b))
      }),
      { numRuns: 300 },
    )
  })

  it('has one winner per name, of the highest tier offering it; every other entry of that name is shadowed by it', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const set = resolveEffectiveTools(input)
        const all = [...set.tools, ...set.excluded]
        for (const name of new Set(all.map((e) => e.name))) {
          const entries = competitors(all, name)
          if (entries.length === 0) continue
          const winners = entries.filter((e) => e.state !== 'shadowed')
          expect(winners, `one winner for ${name}`).toHaveLength(1)
          const [winner] = winners
          const top = Math.max(...entries.map((e) => PRECEDENCE[e.tier]))
          expect(PRECEDENCE[winner.tier], `${name}: ${winner.tier} wins`).toBe(top)
          for (const loser of entries.filter((e) => e !== winner)) {
            expect(loser.state).toBe('shadowed')
            expect(loser.shadowedBy).toBe(winner.provenance)
            expect(PRECEDENCE[loser.tier]).toBeLessThanOrEqual(top)
          }
          expect(set.tools.filter((t) => t.name === name).length).toBeLessThanOrEqual(1)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('never lets a denied winner fall through to a less governed source', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const set = resolveEffectiveTools(input)
        for (const denied of set.excluded.filter((e) => e.state === 'denied' && !reservedDenial(e))) {
          expect(
            set.tools.map((t) => t.name),
            `${denied.name} is denied (${denied.reason})`,
          ).not.toContain(denied.name)
          // …and whatever else offered the name is shadowed by the denied winner, not promoted.
          for (const other of competitors(set.excluded, denied.name).filter((e) => e !== denied)) expect(other.state).toBe('shadowed')
        }
      }),
      { numRuns: 500 },
    )
  })

  it('enables nothing that safety forbids: a namespace in deniedNamespaces, an agent missing from allowedAgents', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { subject } = input
        const catalog = [
          ...input.platformTools,
          ...subject.imageTools,
          ...[...input.connectorTools.values()].flat(),
          ...[...input.languageToolTools.values()].flat(),
          ...input.grantedTools.values(),
        ]
        for (const t of resolveEffectiveTools(input).tools) {
          const origin = catalog.find((c) => c.description === t.description)!
          expect(origin.deniedNamespaces ?? []).not.toContain(subject.namespace)
          // A bare name is an agent of the tool's own namespace; other namespaces are named.
          if (subject.kind === 'Agent' && origin.allowedAgents?.length)
            expect(
              origin.allowedAgents.some(
                (a) =>
                  a === `${subject.namespace}/${subject.name}` ||
                  a === `${subject.namespace}/*` ||
                  (a === subject.name && origin.namespace === subject.namespace),
              ),
            ).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})
