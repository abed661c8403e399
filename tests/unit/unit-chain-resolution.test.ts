// A unit chain's candidates are worked out once and shared by every subject below it
// (docs/design/effective-tools.md#sharing-a-unit-chain): over varied fleets (nested units, bindings
// repeated on the subject and its units, missing references, toggles on and off at every level,
// safety rules, reserved namespaces, SideEffectPolicies), each subject's decisions and entries, the
// excluded ones too, are those of the per-subject resolution as it was (tests/support/per-agent-resolver.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entryOf, resolveEffectiveTools, resolveVerdicts, unitChainCandidates } from '@/lib/effective-tools/resolve-effective-tools'
import type { CatalogTool, PolicyDefaults, ResolverInput } from '@/lib/effective-tools/types'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { catalogTool } from '../support/catalog-tool'
import { perAgentVerdicts } from '../support/per-agent-resolver'

const NAMES = ['toolroom.list_tools', 'crm.find', 'crm.update', 'mail.send', 'acme.echo', 'acme.search', 'ops.restart']
const SLUGS = ['crm', 'mail', 'ops']
const NAMESPACES = ['default', 'finance']
const LEVELS: SideEffectLevel[] = ['read_only', 'external_write', 'financial', 'privileged']
const GRANT_REFS = ['g1', 'g2', 'g3', 'g4', 'finance/g1', 'default/g2', 'nope']

const toolArb = (sourceKind: CatalogTool['source']['kind']) =>
  fc
    .record({
      name: fc.constantFrom(...NAMES),
      namespace: fc.constantFrom(...NAMESPACES),
      level: fc.constantFrom(...LEVELS),
      deniedNamespaces: fc.option(fc.subarray(NAMESPACES, { minLength: 1 }), { nil: undefined }),
      allowedAgents: fc.option(fc.subarray(['bot', 'other', 'default/bot', 'finance/*', 'default/*'], { minLength: 1 }), { nil: undefined }),
      requiresApproval: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(({ name, namespace, level, deniedNamespaces, allowedAgents, requiresApproval }) =>
      catalogTool({
        name,
        namespace,
        level,
        source: { kind: sourceKind, name, namespace },
        ...(deniedNamespaces ? { deniedNamespaces } : {}),
        ...(allowedAgents ? { allowedAgents } : {}),
        ...(requiresApproval !== undefined ? { requiresApproval } : {}),
      }),
    )

const bindingsArb = fc.record({
  connectors: fc.subarray([...SLUGS, 'missing', 'crm']),
  grants: fc.subarray(GRANT_REFS),
  toggles: fc.dictionary(fc.constantFrom(...NAMES), fc.boolean(), { maxKeys: 4 }),
})

const subjectArb = fc.record({
  kind: fc.constantFrom('Agent' as const, 'Unit' as const),
  name: fc.constantFrom('bot', 'other', 'helper'),
  own: bindingsArb,
  languageTools: fc.subarray(['srv', 'finance/srv2', 'gone']),
  image: fc.array(toolArb('Agent'), { maxLength: 4 }),
})

const fleetArb = fc.record({
  namespace: fc.constantFrom(...NAMESPACES),
  // Nearest first; a name may repeat, as a chain read before a cycle was cut would.
  units: fc.array(fc.record({ name: fc.constantFrom('team', 'dept', 'org', 'root'), bindings: bindingsArb }), { maxLength: 4 }),
  subjects: fc.array(subjectArb, { minLength: 1, maxLength: 5 }),
  platform: fc.array(toolArb('Platform'), { maxLength: 3 }),
  connectorTools: fc.record({
    crm: fc.array(toolArb('Connector'), { maxLength: 3 }),
    mail: fc.array(toolArb('Connector'), { maxLength: 3 }),
    ops: fc.array(toolArb('Connector'), { maxLength: 2 }),
  }),
  mcp: fc.record({ srv: fc.array(toolArb('LanguageTool'), { maxLength: 3 }), 'finance/srv2': fc.array(toolArb('LanguageTool'), { maxLength: 3 }) }),
  granted: fc.record({ g1: toolArb('Tool'), g2: toolArb('Tool'), g3: toolArb('Tool'), g4: toolArb('Tool') }),
  policies: fc.dictionary(
    fc.constantFrom(...LEVELS),
    fc.record({ requiresApproval: fc.boolean(), rateLimit: fc.option(fc.record({ callsPerMinute: fc.nat(100) }), { nil: undefined }) }),
  ),
})

type Fleet = typeof fleetArb extends fc.Arbitrary<infer F> ? F : never

/** Each subject's whole input, as loadResolverInput gives it: every reference of its chain readable. */
function inputsOf(fleet: Fleet): ResolverInput[] {
  const grantedTools = new Map<string, CatalogTool>()
  // g4 exists in "default" only, so a grant of it is missing from "finance".
  for (const ns of NAMESPACES)
    for (const [key, tool] of Object.entries(fleet.granted)) if (key !== 'g4' || ns === 'default') grantedTools.set(`${ns}/${key}`, tool)
  const policies = new Map(Object.entries(fleet.policies) as [SideEffectLevel, PolicyDefaults][])
  const ancestors = fleet.units.map((u) => ({ name: u.name, namespace: fleet.namespace, ...u.bindings }))
  return fleet.subjects.map((s) => ({
    subject: {
      kind: s.kind,
      name: s.name,
      namespace: fleet.namespace,
      ...s.own,
      languageTools: s.kind === 'Agent' ? s.languageTools : undefined,
      imageTools: s.image,
      imageDigest: 'sha256:abc',
    },
    ancestors,
    platformTools: fleet.platform,
    connectorTools: new Map(Object.entries(fleet.connectorTools)),
    languageToolTools: new Map(Object.entries(fleet.mcp)),
    grantedTools,
    connectorSlugs: new Set(SLUGS),
    policies,
  }))
}

describe('a unit chain resolved once for every subject below it', { timeout: 60_000 }, () => {
  it('decides every subject as the per-subject resolution did: same verdicts, order, shadowing, reasons and unresolved references', () => {
    fc.assert(
      fc.property(fleetArb, (fleet) => {
        const inputs = inputsOf(fleet)
        const shared = unitChainCandidates(inputs[0])
        for (const input of inputs) {
          const reference = perAgentVerdicts(input)
          expect(resolveVerdicts({ ...input, chain: shared })).toEqual(reference)
          expect(resolveVerdicts(input)).toEqual(reference)
        }
      }),
      { numRuns: 1500 },
    )
  })

  it('gives the same entries, excluded ones included, as the per-subject resolution', () => {
    fc.assert(
      fc.property(fleetArb, (fleet) => {
        const inputs = inputsOf(fleet)
        const shared = unitChainCandidates(inputs[0])
        for (const input of inputs) {
          const reference = perAgentVerdicts(input)
          const set = resolveEffectiveTools({ ...input, chain: shared })
          expect(set.tools).toEqual(reference.tools.map((v) => entryOf(v, input)))
          expect(set.excluded).toEqual(reference.excluded.map((v) => entryOf(v, input)))
          expect(set.unresolved).toEqual(reference.unresolved)
        }
      }),
      { numRuns: 500 },
    )
  })
})
