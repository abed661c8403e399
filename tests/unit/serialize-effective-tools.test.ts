// Answers assembled from shared, pre-serialized entries (serialize-effective-tools.ts) are byte for byte
// the JSON.stringify of the answers built from objects (get-effective-tools.ts, subject-answers.ts):
// over random fleets that share one catalog (nested units, connectors bound at several levels, grants,
// toggles that disable, safety denials, reserved namespaces, shadowing, SideEffectPolicies, Policies
// per agent, call statistics, health, non-ASCII text), one set of kept pieces serving every subject.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { attachStats } from '@/lib/effective-tools/attach-stats'
import { entryOf, resolveEffectiveTools, resolveVerdicts } from '@/lib/effective-tools/resolve-effective-tools'
import { createHash } from 'node:crypto'
import { digestEntries, entryPieces, serializeEntries, serializeObject } from '@/lib/effective-tools/serialize-effective-tools'
import type { CatalogTool, PolicyDefaults, ResolverInput } from '@/lib/effective-tools/types'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import type { ToolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { catalogTool } from '../support/catalog-tool'

const NAMES = ['toolroom.list_tools', 'crm.find', 'crm.update', 'mail.send', 'acme.echo', 'acme.search', 'zeta.ünïcode']
const SLUGS = ['crm', 'mail']
const NAMESPACES = ['default', 'finance', 'ops']
const LEVELS: SideEffectLevel[] = ['read_only', 'external_write', 'financial']
const POLICY_IDS = ['default/audit', 'ops/limit-writes', 'finance/two-eyes']

const toolArb = (sourceKind: CatalogTool['source']['kind']) =>
  fc
    .record({
      name: fc.constantFrom(...NAMES),
      namespace: fc.constantFrom(...NAMESPACES),
      level: fc.constantFrom(...LEVELS),
      deniedNamespaces: fc.option(fc.subarray(NAMESPACES, { minLength: 1 }), { nil: undefined }),
      allowedAgents: fc.option(fc.subarray(['bot', 'other', 'ops/bot', 'default/*'], { minLength: 1 }), { nil: undefined }),
      requiresApproval: fc.option(fc.boolean(), { nil: undefined }),
      rateLimit: fc.option(fc.record({ callsPerMinute: fc.integer({ min: 1, max: 60 }) }), { nil: undefined }),
      outputSchema: fc.option(fc.constant({ type: 'object', properties: { ok: { type: 'boolean' } } }), { nil: undefined }),
      upstreamName: fc.option(fc.constantFrom('find', 'send'), { nil: undefined }),
      health: fc.option(
        fc.record({
          phase: fc.constantFrom('Ready', 'Degraded'),
          problems: fc.constant([{ type: 'Reachable', reason: 'Timeout', message: 'no answer in 5 s — "retry"' }]),
        }),
        { nil: undefined },
      ),
      description: fc.string({ maxLength: 12 }),
    })
    .map(({ name, namespace, level, description, ...over }) =>
      catalogTool({
        name,
        namespace,
        level,
        description: `${name} — ${description}`,
        inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'naïve "query"' } } },
        source: {
          kind: sourceKind,
          name: sourceKind === 'Tool' ? name : `${sourceKind.toLowerCase()}-src`,
          namespace: sourceKind === 'Platform' ? null : namespace,
        },
        ...Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)),
      }),
    )

const bindingsArb = fc.record({
  connectors: fc.subarray([...SLUGS, 'missing']),
  grants: fc.subarray(['g1', 'g2', 'g3', 'finance/g1', 'nope']),
  toggles: fc.dictionary(fc.constantFrom(...NAMES), fc.boolean(), { maxKeys: 3 }),
})

const UNITS = ['org', 'dept', 'team']

const fleetArb = fc.record({
  platform: fc.array(toolArb('Platform'), { maxLength: 3 }),
  connectorTools: fc.record({ crm: fc.array(toolArb('Connector'), { maxLength: 4 }), mail: fc.array(toolArb('Connector'), { maxLength: 3 }) }),
  mcp: fc.record({ srv: fc.array(toolArb('LanguageTool'), { maxLength: 3 }), 'finance/srv2': fc.array(toolArb('LanguageTool'), { maxLength: 3 }) }),
  granted: fc.record({ g1: toolArb('Tool'), g2: toolArb('Tool'), g3: toolArb('Tool') }),
  units: fc.record({ org: bindingsArb, dept: bindingsArb, team: bindingsArb }),
  sideEffectPolicies: fc.array(
    fc.record({
      level: fc.constantFrom(...LEVELS),
      requiresApproval: fc.boolean(),
      rateLimit: fc.option(fc.record({ callsPerDay: fc.integer({ min: 1, max: 1000 }) }), { nil: undefined }),
    }),
    { maxLength: 3 },
  ),
  subjects: fc.array(
    fc.record({
      kind: fc.constantFrom('Agent' as const, 'Agent' as const, 'Unit' as const),
      name: fc.constantFrom('bot', 'other', 'team'),
      namespace: fc.constantFrom(...NAMESPACES),
      // How many units of the chain org <- dept <- team it sits below (0: none).
      depth: fc.integer({ min: 0, max: 3 }),
      own: bindingsArb,
      languageTools: fc.subarray(['srv', 'finance/srv2', 'gone']),
      image: fc.array(toolArb('Agent'), { maxLength: 3 }),
      // The Policies reaching each of its tool names (agents only).
      policies: fc.dictionary(fc.constantFrom(...NAMES), fc.subarray(POLICY_IDS, { minLength: 1 })),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  stats: fc.array(fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: 5 })), { minLength: NAMES.length, maxLength: NAMES.length }),
  budget: fc.constantFrom(0, 4000, 1_000_000),
})

type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never

function inputsOf(fleet: Fleet): Array<{ input: ResolverInput; policiesOf: (name: string) => string[] | undefined }> {
  const grantedTools = new Map<string, CatalogTool>()
  for (const ns of NAMESPACES) for (const [key, tool] of Object.entries(fleet.granted)) grantedTools.set(`${ns}/${key}`, tool)
  const connectorTools = new Map(Object.entries(fleet.connectorTools))
  const languageToolTools = new Map(Object.entries(fleet.mcp))
  const policies = new Map<SideEffectLevel, PolicyDefaults>(fleet.sideEffectPolicies.map(({ level, ...p }) => [level, p]))
  return fleet.subjects.map((s) => {
    const chain = UNITS.slice(UNITS.length - s.depth).reverse()
    return {
      input: {
        subject: {
          kind: s.kind,
          name: s.name,
          namespace: s.namespace,
          ...s.own,
          languageTools: s.languageTools,
          imageTools: s.image,
          imageDigest: 'sha256:abc',
        },
        ancestors: chain.map((u) => ({ name: u, namespace: s.namespace, ...fleet.units[u as keyof Fleet['units']] })),
        platformTools: fleet.platform,
        connectorTools,
        languageToolTools,
        grantedTools,
        connectorSlugs: new Set(SLUGS),
        policies,
      },
      policiesOf: (name: string) => (s.kind === 'Agent' ? s.policies[name] : undefined),
    }
  })
}

function statsOf(fleet: Fleet): ToolStatsSnapshot {
  const byTool = new Map<string, { totalCalls7d: number; failureRate7d: number | null; refusedCalls7d: number }>()
  const all = [...fleet.platform, ...fleet.connectorTools.crm, ...fleet.connectorTools.mail, ...fleet.mcp.srv, ...Object.values(fleet.granted)]
  all.forEach((tool, i) => {
    const [calls, refused] = fleet.stats[i % fleet.stats.length]
    if (calls % 3 !== 0)
      byTool.set(toolStatKey(tool.source, tool.name), { totalCalls7d: calls, failureRate7d: calls ? (calls % 7) / calls : null, refusedCalls7d: refused })
  })
  return { version: 'v1', byTool }
}

/** The answer as get-effective-tools.ts and subject-answers.ts built it before: objects, then one JSON.stringify. */
function referenceJson(input: ResolverInput, stats: ToolStatsSnapshot, policiesOf: (name: string) => string[] | undefined, view: Record<string, unknown>) {
  const set = resolveEffectiveTools(input)
  for (const entry of [...set.tools, ...set.excluded]) attachStats(entry, stats)
  for (const entry of set.tools) {
    const names = policiesOf(entry.name)
    if (names) entry.policies = names
  }
  return JSON.stringify({ ...view, effectiveTools: set.tools, excluded: set.excluded, unresolved: set.unresolved })
}

describe('serialized effective-tools answers', { timeout: 120_000 }, () => {
  it('are byte for byte the JSON.stringify of the answer built from objects, pieces shared across a fleet', () => {
    fc.assert(
      fc.property(fleetArb, (fleet) => {
        const stats = statsOf(fleet)
        const subjects = inputsOf(fleet)
        const pieces = entryPieces(subjects[0].input.policies, stats, fleet.budget)
        // Twice over: the second round is served from the pieces the first kept.
        for (let round = 0; round < 2; round++)
          for (const { input, policiesOf } of subjects) {
            const view = { id: 'a1', kind: input.subject.kind, metadata: { name: input.subject.name, labels: { tier: 'é' } }, gone: undefined, at: new Date(0) }
            const { tools, excluded, unresolved } = resolveVerdicts(input)
            for (const v of tools) v.policies = policiesOf(v.name)
            const assembled = serializeObject({
              ...view,
              effectiveTools: serializeEntries(tools, input, stats, pieces),
              excluded: serializeEntries(excluded, input, stats, pieces),
              unresolved,
            })
            expect(assembled.toString('utf8')).toBe(referenceJson(input, stats, policiesOf, view))
          }
        expect(pieces.bytes).toBeLessThanOrEqual(fleet.budget)
      }),
      { numRuns: 400 },
    )
  })

  it('serializes the members of an object as JSON.stringify does: key order, left-out members, nested values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(
            fc.jsonValue(),
            fc.constant(undefined),
            fc.constant(() => 1),
          ),
        ),
        (value) => {
          expect(serializeObject(value).toString('utf8')).toBe(JSON.stringify(value))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps a piece per tool and decision, not per subject', () => {
    const tool = catalogTool({ name: 'acme.echo' })
    const input = (name: string): ResolverInput => ({
      subject: { kind: 'Agent', name, namespace: 'default', grants: ['acme.echo'], imageTools: [], imageDigest: null },
      ancestors: [],
      platformTools: [],
      connectorTools: new Map(),
      languageToolTools: new Map(),
      grantedTools: new Map([['default/acme.echo', tool]]),
      connectorSlugs: new Set(),
      policies: new Map(),
    })
    const stats: ToolStatsSnapshot = { version: 'v', byTool: new Map() }
    const pieces = entryPieces(new Map(), stats, 1_000_000)
    const texts = ['a', 'b', 'c'].map((name) => {
      const i = { ...input(name), policies: pieces.policies }
      return serializeEntries(resolveVerdicts(i).tools, i, stats, pieces).parts[1]
    })
    // The same kept bytes, viewed without their leading comma.
    for (const text of texts.slice(1)) expect([text.buffer, text.byteOffset]).toEqual([texts[0].buffer, texts[0].byteOffset])
    expect(pieces.byTool.size).toBe(1)
    expect([...pieces.byTool.get(tool)!.plain.values()].map((byUnit) => byUnit.size)).toEqual([1])
    const { tools } = resolveVerdicts({ ...input('a'), policies: pieces.policies })
    expect(texts[0].toString()).toBe(
      JSON.stringify(Object.assign(entryOf(tools[0], { policies: new Map() }), { totalCalls7d: 0, failureRate7d: null, refusedCalls7d: 0 })),
    )
  })

  it("spells a set for its fingerprint as its entries' digests: each the digest of the entry's JSON, whichever pieces were kept", () => {
    const digest = (text: string) => createHash('sha256').update(text).digest('base64url')
    fc.assert(
      fc.property(fleetArb, (fleet) => {
        const stats = statsOf(fleet)
        const subjects = inputsOf(fleet)
        // Kept within the fleet's budget, kept without bound, and nothing kept: the same digests.
        const kept = [
          entryPieces(subjects[0].input.policies, stats, fleet.budget, 'digest'),
          entryPieces(subjects[0].input.policies, stats, 1e9, 'digest'),
          null,
        ]
        for (let round = 0; round < 2; round++)
          for (const { input, policiesOf } of subjects) {
            const reference = resolveEffectiveTools(input)
            for (const entry of [...reference.tools, ...reference.excluded]) attachStats(entry, stats)
            for (const entry of reference.tools) if (policiesOf(entry.name)) entry.policies = policiesOf(entry.name)
            const { tools, excluded } = resolveVerdicts(input)
            for (const v of tools) v.policies = policiesOf(v.name)
            for (const pieces of kept) {
              const spelled = (verdicts: typeof tools) => Buffer.concat(digestEntries(verdicts, input, stats, pieces).parts).toString('latin1')
              expect(spelled(tools)).toBe(`[${reference.tools.map((e) => digest(JSON.stringify(e))).join('')}]`)
              expect(spelled(excluded)).toBe(`[${reference.excluded.map((e) => digest(JSON.stringify(e))).join('')}]`)
            }
          }
      }),
      { numRuns: 200 },
    )
  })

  it("moves the digests when one field of one entry moves, and only that entry's", () => {
    const input = (description: string): ResolverInput => ({
      subject: { kind: 'Agent', name: 'a', namespace: 'default', grants: ['acme.echo', 'acme.search'], imageTools: [], imageDigest: null },
      ancestors: [],
      platformTools: [],
      connectorTools: new Map(),
      languageToolTools: new Map(),
      grantedTools: new Map([
        ['default/acme.echo', catalogTool({ name: 'acme.echo', description })],
        ['default/acme.search', catalogTool({ name: 'acme.search' })],
      ]),
      connectorSlugs: new Set(),
      policies: new Map(),
    })
    const stats: ToolStatsSnapshot = { version: 'v', byTool: new Map() }
    const spelled = (i: ResolverInput) => digestEntries(resolveVerdicts(i).tools, i, stats, entryPieces(i.policies, stats, 1e6, 'digest')).parts.map(String)
    const [before, same, after] = [spelled(input('Echoes')), spelled(input('Echoes')), spelled(input('Echoes.'))]
    expect(same).toEqual(before)
    expect(after).toHaveLength(before.length)
    expect(after.filter((part, i) => part !== before[i])).toHaveLength(1)
  })
})
