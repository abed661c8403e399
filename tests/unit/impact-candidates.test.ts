// The impact on agents resolves only the agents a manifest can reach (impact-candidates.ts) over the
// would-be registry (overlay-reader.ts), for the tool names it can change (impact-scope.ts). Property
// tests over random fleets and random manifests: the overlay reads exactly as a registry holding the
// after-state would, every agent whose effective set changes when all of them are resolved is among
// the candidates, and resolving a candidate for its scope of names finds exactly the same changes.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { catalogToolFromRow, type DiscoveredMcpTool, type ImageToolDefinition } from '@/lib/effective-tools/catalog-tools'
import { compareEffectiveSets } from '@/lib/effective-tools/compare-effective-sets'
import { impactCandidates, type RegistryState, type TouchedResources } from '@/lib/effective-tools/impact-candidates'
import { restrictResolverInput, toolNameScopes, type ToolNames } from '@/lib/effective-tools/impact-scope'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { emptyOverlay, overlayReader } from '@/lib/effective-tools/overlay-reader'
import { connectorToolsOf, type RegistryReader } from '@/lib/effective-tools/registry-reader'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { SideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Row } from '@/lib/resources/kind-adapters'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'

interface Fleet {
  agents: Map<string, AgentSpec>
  units: Map<string, UnitSpec>
  connectors: Map<string, { namespace: string; spec: ConnectorSpec }>
  tools: Map<string, ToolSpec>
  servers: Map<string, DiscoveredMcpTool[]>
  policies: Map<SideEffectLevel, SideEffectPolicySpec>
}

const NAMESPACES = ['a', 'b']
const UNITS = ['u1', 'u2', 'u3']
const SLUGS = ['crm', 'pay']
const SERVERS = ['crm', 'mem']
const LEVELS: SideEffectLevel[] = ['read_only', 'financial', 'external_write']
const TOOL_NAMES = ['crm.find', 'crm.update', 'pay.refund', 'acme.lookup', 'acme.notify', 'mem.search']
const AGENTS = ['bot', 'helper', 'auditor']
const IMAGE_TOOL_NAMES = ['acme.lookup', 'img.local', 'crm.find', 'mem.search']

const ns = fc.constantFrom(...NAMESPACES)
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined })
const ref = (names: string[]) =>
  fc.oneof(
    fc.constantFrom(...names),
    fc.tuple(ns, fc.constantFrom(...names)).map(([n, x]) => `${n}/${x}`),
  )
const toggles = maybe(fc.dictionary(fc.constantFrom(...TOOL_NAMES, 'img.local'), fc.boolean(), { maxKeys: 2 }))

const toolSpec: fc.Arbitrary<ToolSpec> = fc
  .record({
    level: maybe(fc.constantFrom(...LEVELS)),
    requiresApproval: maybe(fc.boolean()),
    allowedAgents: maybe(fc.array(fc.oneof(fc.constantFrom(...AGENTS), fc.constantFrom('a/bot', 'b/*', 'a/*')), { maxLength: 2 })),
    deniedNamespaces: maybe(fc.array(ns, { maxLength: 1 })),
  })
  .map(
    ({ level, requiresApproval, allowedAgents, deniedNamespaces }) =>
      ({
        type: 'function',
        description: 'x',
        inputSchema: { type: 'object' },
        ...(level || requiresApproval !== undefined
          ? { sideEffects: { ...(level ? { level } : {}), ...(requiresApproval !== undefined ? { requiresApproval } : {}) } }
          : {}),
        ...(allowedAgents || deniedNamespaces
          ? { safety: { ...(allowedAgents ? { allowedAgents } : {}), ...(deniedNamespaces ? { deniedNamespaces } : {}) } }
          : {}),
      }) as unknown as ToolSpec,
  )

const unitSpec: fc.Arbitrary<UnitSpec> = fc.record(
  { parent: maybe(fc.constantFrom(...UNITS)), connectors: maybe(fc.subarray(SLUGS)), grants: maybe(fc.array(ref(TOOL_NAMES), { maxLength: 2 })), toggles },
  { requiredKeys: [] },
) as fc.Arbitrary<UnitSpec>

const agentSpec: fc.Arbitrary<AgentSpec> = fc.record(
  {
    unit: maybe(fc.constantFrom(...UNITS)),
    connectors: maybe(fc.subarray(SLUGS)),
    grants: maybe(fc.array(ref(TOOL_NAMES), { maxLength: 2 })),
    languageTools: maybe(fc.subarray(SERVERS)),
    toggles,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<AgentSpec>

const connectorSpec = (slug: string): fc.Arbitrary<ConnectorSpec> =>
  fc.record(
    { tools: fc.subarray(TOOL_NAMES.filter((t) => t.startsWith(`${slug}.`))), languageTool: maybe(fc.constantFrom(...SERVERS)) },
    { requiredKeys: ['tools'] },
  ) as fc.Arbitrary<ConnectorSpec>

const surface: fc.Arbitrary<DiscoveredMcpTool[]> = fc
  .subarray(['search', 'find', 'write'])
  .map((names) => names.map((name) => ({ name, annotations: { readOnlyHint: name !== 'write' } })))

const policy = (level: SideEffectLevel) => fc.boolean().map((requiresApproval) => ({ level, requiresApproval }) as SideEffectPolicySpec)

/** Some keys, each with a value or absent. */
function keyed<T>(keys: string[], value: (key: string) => fc.Arbitrary<T>): fc.Arbitrary<Map<string, T>> {
  return fc
    .tuple(...keys.map((k) => maybe(value(k))))
    .map((values) => new Map(keys.flatMap((k, i) => (values[i] === undefined ? [] : [[k, values[i] as T] as const]))))
}

const everywhere = (names: string[]) => NAMESPACES.flatMap((n) => names.map((x) => `${n}/${x}`))

const fleet: fc.Arbitrary<Fleet> = fc.record({
  agents: keyed(everywhere(AGENTS), () => agentSpec),
  units: keyed(everywhere(UNITS), () => unitSpec),
  connectors: keyed(SLUGS, (slug) => fc.tuple(ns, connectorSpec(slug)).map(([namespace, spec]) => ({ namespace, spec }))),
  tools: keyed(everywhere(TOOL_NAMES), () => toolSpec),
  servers: keyed(everywhere(SERVERS), () => surface),
  policies: keyed(LEVELS, (level) => policy(level as SideEffectLevel)) as fc.Arbitrary<Map<SideEffectLevel, SideEffectPolicySpec>>,
})

/** A manifest: per key, leave it, set it (create or change) or delete it (prune). */
function changesTo<T>(stored: Map<string, T>, keys: string[], value: (key: string) => fc.Arbitrary<T>): fc.Arbitrary<Map<string, T | null>> {
  return fc
    .tuple(...keys.map((k) => fc.oneof({ weight: 4, arbitrary: fc.constant<'keep'>('keep') }, value(k), fc.constant(null))))
    .map(
      (choices) =>
        new Map(keys.flatMap((k, i) => (choices[i] === 'keep' || (choices[i] === null && !stored.has(k)) ? [] : [[k, choices[i] as T | null] as const]))),
    )
}

const imageTools = new Map<string, ImageToolDefinition[]>(
  everywhere(AGENTS).map((key, i) => [
    key,
    IMAGE_TOOL_NAMES.filter((_, j) => (i + j) % 2 === 0).map((name) => ({ name, description: '', inputSchema: { type: 'object' } })),
  ]),
)

const SERVER_SPEC: LanguageToolSpec = { endpoint: 'https://mcp.example.com/mcp', port: 8080, deploymentMode: 'service', transport: 'streamable-http' }

function memoryReader(f: Fleet): RegistryReader {
  const split = (ref: string) => [ref.slice(0, ref.indexOf('/')), ref.slice(ref.indexOf('/') + 1)] as const
  const parts = {
    unitsIn: async (namespace: string) => new Map([...f.units].filter(([k]) => split(k)[0] === namespace).map(([k, v]) => [split(k)[1], v])),
    connectors: async () => new Map(f.connectors),
    policies: async () => new Map([...f.policies].map(([level, spec]) => [level, { requiresApproval: spec.requiresApproval, rateLimit: spec.rateLimit }])),
    tools: async (refs: string[]) =>
      new Map(
        refs
          .filter((r) => f.tools.has(r))
          .map((r) => [r, catalogToolFromRow({ namespace: split(r)[0], name: split(r)[1], spec: f.tools.get(r), totalCalls7d: 0, failureRate7d: null })]),
      ),
    servers: async (refs: string[]) =>
      new Map(
        refs
          .filter((r) => f.servers.has(r))
          .map((r) => [
            r,
            {
              namespace: split(r)[0],
              name: split(r)[1],
              toolSchemas: f.servers.get(r)!,
              phase: 'Ready' as string,
              lastError: null,
              spec: SERVER_SPEC,
              detectedTransport: null,
              detectedUrl: null,
            },
          ]),
      ),
  }
  return {
    ...parts,
    toolSpecs: async (refs: string[]) => new Map(refs.filter((r) => f.tools.has(r)).map((r) => [r, f.tools.get(r)!])),
    connectorTools: connectorToolsOf(parts),
  }
}

function row(key: string, spec: AgentSpec): Row {
  const [namespace, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)]
  const now = new Date(0)
  return {
    id: key,
    apiVersion: 'toolroom.dev/v1alpha1',
    namespace,
    name,
    labels: {},
    annotations: {},
    generation: 1,
    spec,
    createdAt: now,
    updatedAt: now,
    imageTools: imageTools.get(key),
    imageDigest: null,
  }
}

const resolve = async (reader: RegistryReader, key: string, spec: AgentSpec | undefined, names: ToolNames = 'all') =>
  spec ? resolveEffectiveTools(restrictResolverInput(await loadResolverInput('Agent', row(key, spec), reader), names)) : null

function apply<T>(stored: Map<string, T>, changes: Map<string, T | null>): Map<string, T> {
  const out = new Map(stored)
  for (const [k, v] of changes) {
    if (v === null) out.delete(k)
    else out.set(k, v)
  }
  return out
}

const scenario = fleet.chain((before) =>
  fc
    .record({
      agents: changesTo(before.agents, everywhere(AGENTS), () => agentSpec),
      units: changesTo(before.units, everywhere(UNITS), () => unitSpec),
      connectors: changesTo(before.connectors, SLUGS, (slug) => fc.tuple(ns, connectorSpec(slug)).map(([namespace, spec]) => ({ namespace, spec }))),
      tools: changesTo(before.tools, everywhere(TOOL_NAMES), () => toolSpec),
      // Applying a server changes nothing it serves until discovery runs: it exists (with no tools when new), or is pruned.
      servers: changesTo(before.servers, everywhere(SERVERS), () => fc.constant<DiscoveredMcpTool[]>([])),
      policies: changesTo(before.policies as Map<string, SideEffectPolicySpec>, LEVELS, (level) => policy(level as SideEffectLevel)),
    })
    .map((changes) => ({ before, changes })),
)

describe('the would-be registry and the agents it can reach', () => {
  it('the overlay reads as the after-state would, and every agent whose set changes is a candidate', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ before, changes }) => {
        const servers = new Map(before.servers)
        for (const [k, v] of changes.servers) {
          if (v === null) servers.delete(k)
          else servers.set(k, servers.get(k) ?? [])
        }
        const after: Fleet = {
          agents: apply(before.agents, changes.agents),
          units: apply(before.units, changes.units),
          connectors: apply(before.connectors, changes.connectors),
          tools: apply(before.tools, changes.tools),
          servers,
          policies: apply(before.policies as Map<string, SideEffectPolicySpec>, changes.policies) as Map<SideEffectLevel, SideEffectPolicySpec>,
        }
        const overlay = emptyOverlay()
        changes.units.forEach((v, k) => overlay.units.set(k, v))
        changes.connectors.forEach((v, k) => overlay.connectors.set(k, v))
        changes.tools.forEach((v, k) => overlay.tools.set(k, v))
        changes.servers.forEach((v, k) => overlay.servers.set(k, v === null ? null : SERVER_SPEC))
        changes.policies.forEach((v, k) => overlay.policies.set(k as SideEffectLevel, v))
        const baseReader = memoryReader(before)
        const overlaid = overlayReader(baseReader, overlay)
        const afterReader = memoryReader(after)

        const touched: TouchedResources = {
          agents: new Set(changes.agents.keys()),
          units: new Set(changes.units.keys()),
          connectors: new Set(changes.connectors.keys()),
          tools: new Set(changes.tools.keys()),
          servers: new Set(changes.servers.keys()),
          policies: changes.policies.size > 0,
          connectorSlugs: [...changes.connectors].some(([slug, v]) => v === null || !before.connectors.has(slug)),
        }
        const state = (f: Fleet): RegistryState => ({ agents: f.agents, units: f.units, connectors: f.connectors })
        const candidates = impactCandidates(state(before), state(after), touched)

        const scopes = toolNameScopes({
          before: state(before),
          after: state(after),
          touched,
          readers: [baseReader, overlaid],
          policyLevels: new Set(changes.policies.keys() as Iterable<SideEffectLevel>),
          slugsAppearingOrGoing: new Set([...changes.connectors].filter(([slug, v]) => v === null || !before.connectors.has(slug)).map(([slug]) => slug)),
        })
        for (const key of new Set([...before.agents.keys(), ...after.agents.keys()])) {
          const overlayAnswer = await resolve(overlaid, key, after.agents.get(key))
          expect(overlayAnswer).toEqual(await resolve(afterReader, key, after.agents.get(key)))
          const impact = compareEffectiveSets(await resolve(baseReader, key, before.agents.get(key)), overlayAnswer)
          if (impact.length > 0) expect(candidates.has(key), `${key}: ${JSON.stringify(impact)}`).toBe(true)
          if (!candidates.has(key)) continue
          const names = await scopes.forAgent(key)
          const scoped = compareEffectiveSets(
            await resolve(baseReader, key, before.agents.get(key), names),
            await resolve(overlaid, key, after.agents.get(key), names),
          )
          expect(scoped, `${key} scoped to ${JSON.stringify(names === 'all' ? 'all' : [...names.names, ...names.levels, ...names.namespaces])}`).toEqual(impact)
        }
      }),
      { numRuns: 300 },
    )
  }, 120_000)
})
