// The impact of an apply on agents, for a dry run: every agent whose effective tool set would change,
// tool by tool, computed by the real resolver over the would-be registry (the stored one with the
// manifest laid over it, overlay-reader.ts), without writing anything. Only agents the manifest can
// reach are resolved (impact-candidates.ts), twice each, for the tool names it can change
// (impact-scope.ts), in batches whose Tools and servers are read in one query; the rest cannot change. BENCHMARKS.md, `npm run bench:apply-impact`, has the figures.
import 'server-only'
import { prisma } from '@/lib/db'
import type { Kind } from '@/lib/manifests/kinds'
import { qualifyRef } from '@/lib/refs/resource-ref'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { SideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Row } from '@/lib/resources/kind-adapters'
import { compareEffectiveSets, type ToolImpact } from './compare-effective-sets'
import { impactCandidates, type RegistryState, type TouchedResources } from './impact-candidates'
import { loadResolverInput } from './load-resolver-input'
import { restrictResolverInput, toolNameScopes } from './impact-scope'
import { emptyOverlay, overlayReader } from './overlay-reader'
import { type RegistryReader, registryReader } from './registry-reader'
import { resolveEffectiveTools } from './resolve-effective-tools'

/** A resource the apply would create or change (its new spec) or delete (`spec: null`). */
export interface PlannedChange {
  kind: Kind
  namespace: string
  name: string
  spec: unknown | null
}

export interface AgentImpact {
  id: string | null
  namespace: string
  name: string
  changes: ToolImpact[]
}

export interface ApplyImpact {
  /** Every agent there is before or after the apply: those it cannot reach are known unchanged without resolving. */
  agentsChecked: number
  /** Of those, the agents the manifest can reach, whose sets were worked out before and after. */
  agentsResolved: number
  agentsAffected: number
  /** Agents whose set would change, by namespace and name; cut at MAX_LISTED_TOOL_CHANGES changes in all. */
  agents: AgentImpact[]
  /** Whether `agents` stops short of `agentsAffected`. */
  truncated: boolean
}

/** Bounds the answer (a policy change can touch every tool of every agent); the counts stay exact. */
export const MAX_LISTED_TOOL_CHANGES = 20_000
const BATCH = 250
/** What the resolver reads of an agent's row. */
const RESOLVER_COLUMNS = { id: true, namespace: true, name: true, spec: true, imageTools: true, imageDigest: true } as const

export async function impactOnAgents(changes: PlannedChange[]): Promise<ApplyImpact> {
  const base = registryReader()
  const overlay = emptyOverlay()
  const touched = {
    agents: new Set<string>(),
    units: new Set<string>(),
    connectors: new Set<string>(),
    tools: new Set<string>(),
    servers: new Set<string>(),
    policies: false,
    connectorSlugs: false,
  }
  const agentsAfterApply = new Map<string, AgentSpec | null>()
  const policyLevels = new Set<SideEffectLevel>()
  const slugsAppearingOrGoing = new Set<string>()
  const storedConnectors = await base.connectors()
  for (const { kind, namespace, name, spec } of changes) {
    const ref = `${namespace}/${name}`
    switch (kind) {
      case 'Agent':
        agentsAfterApply.set(ref, spec as AgentSpec | null)
        touched.agents.add(ref)
        break
      case 'Unit':
        overlay.units.set(ref, spec as UnitSpec | null)
        touched.units.add(ref)
        break
      case 'Connector':
        overlay.connectors.set(name, spec ? { namespace, spec: spec as ConnectorSpec } : null)
        touched.connectors.add(name)
        if (!spec || !storedConnectors.has(name)) {
          touched.connectorSlugs = true
          slugsAppearingOrGoing.add(name)
        }
        break
      case 'Tool':
        overlay.tools.set(ref, spec as ToolSpec | null)
        touched.tools.add(ref)
        break
      case 'LanguageTool':
        overlay.servers.set(ref, spec as LanguageToolSpec | null)
        touched.servers.add(ref)
        break
      case 'SideEffectPolicy':
        overlay.policies.set(spec ? (spec as SideEffectPolicySpec).level : (name as SideEffectLevel), spec as SideEffectPolicySpec | null)
        policyLevels.add(spec ? (spec as SideEffectPolicySpec).level : (name as SideEffectLevel))
        touched.policies = true
        break
      case 'Secret':
        break // values reach no effective set
      case 'Policy':
        break // decides per call, never what is in a set: the dry run lists whom it reaches apart (lib/apply/policy-reach.ts)
    }
  }
  const after = overlayReader(base, overlay)

  const [agents, units] = await Promise.all([
    prisma.agent.findMany({ select: { id: true, namespace: true, name: true, spec: true } }),
    prisma.unit.findMany({ select: { namespace: true, name: true, spec: true } }),
  ])
  const idOf = new Map(agents.map((a) => [`${a.namespace}/${a.name}`, a.id]))
  const before: RegistryState = {
    agents: new Map(agents.map((a) => [`${a.namespace}/${a.name}`, a.spec as AgentSpec])),
    units: new Map(units.map((u) => [`${u.namespace}/${u.name}`, u.spec as UnitSpec])),
    connectors: storedConnectors,
  }
  const afterState: RegistryState = {
    agents: withChanges(before.agents, agentsAfterApply),
    units: withChanges(before.units, overlay.units),
    connectors: await after.connectors(),
  }
  const candidates = [...impactCandidates(before, afterState, touched as TouchedResources)].sort()
  const everyone = new Set([...before.agents.keys(), ...afterState.agents.keys()])

  const scopes = toolNameScopes({
    before,
    after: afterState,
    touched: touched as TouchedResources,
    readers: [base, after],
    policyLevels,
    slugsAppearingOrGoing,
  })
  const affected: AgentImpact[] = []
  for (let start = 0; start < candidates.length; start += BATCH) {
    const batch = candidates.slice(start, start + BATCH)
    const storedIds = batch.flatMap((key) => (idOf.has(key) ? [idOf.get(key)!] : []))
    const rows = new Map(
      ((await prisma.agent.findMany({ where: { id: { in: storedIds } }, select: RESOLVER_COLUMNS })) as unknown as Row[]).map((row) => [
        `${row.namespace}/${row.name}`,
        row,
      ]),
    )
    await prefetch(base, after, batch, before, afterState)
    for (const key of batch) {
      const stored = rows.get(key) ?? null
      const next = afterState.agents.get(key) ?? null
      const names = await scopes.forAgent(key)
      const was = stored ? resolveEffectiveTools(restrictResolverInput(await loadResolverInput('Agent', stored, base), names)) : null
      const will = next ? resolveEffectiveTools(restrictResolverInput(await loadResolverInput('Agent', agentRowAfter(key, stored, next), after), names)) : null
      const toolChanges = compareEffectiveSets(was, will)
      if (toolChanges.length === 0) continue
      const slash = key.indexOf('/')
      affected.push({ id: stored?.id ?? null, namespace: key.slice(0, slash), name: key.slice(slash + 1), changes: toolChanges })
    }
  }

  let budget = MAX_LISTED_TOOL_CHANGES
  const listed: AgentImpact[] = []
  for (const agent of affected) {
    if (agent.changes.length > budget) break
    budget -= agent.changes.length
    listed.push(agent)
  }
  return {
    agentsChecked: everyone.size,
    agentsResolved: candidates.length,
    agentsAffected: affected.length,
    agents: listed,
    truncated: listed.length < affected.length,
  }
}

function withChanges<T>(stored: ReadonlyMap<string, T>, changes: ReadonlyMap<string, T | null>): Map<string, T> {
  const out = new Map(stored)
  for (const [key, value] of changes) {
    if (value === null) out.delete(key)
    else out.set(key, value)
  }
  return out
}

/** The agent as the apply would leave it: its new spec over what is stored (image tools stay until discovery). */
function agentRowAfter(key: string, stored: Row | null, spec: AgentSpec): Row {
  if (stored) return { ...stored, spec }
  const slash = key.indexOf('/')
  const now = new Date()
  return {
    id: '',
    apiVersion: '',
    namespace: key.slice(0, slash),
    name: key.slice(slash + 1),
    labels: {},
    annotations: {},
    generation: 0,
    spec,
    createdAt: now,
    updatedAt: now,
    imageTools: [],
    imageDigest: null,
  }
}

/** Reads the Tools and servers a batch of agents names, in one query each, before they are resolved one by one. */
async function prefetch(base: RegistryReader, after: RegistryReader, batch: string[], ...states: RegistryState[]) {
  const tools = new Set<string>()
  const servers = new Set<string>()
  for (const state of states)
    for (const key of batch) {
      const agent = state.agents.get(key)
      if (!agent) continue
      const namespace = key.slice(0, key.indexOf('/'))
      for (const ref of agent.grants ?? []) tools.add(qualifyRef(ref, namespace))
      for (const ref of agent.languageTools ?? []) servers.add(qualifyRef(ref, namespace))
      const seen = new Set<string>()
      for (let unit = agent.unit; unit && !seen.has(unit);) {
        seen.add(unit)
        const spec = state.units.get(`${namespace}/${unit}`)
        if (!spec) break
        for (const ref of spec.grants ?? []) tools.add(qualifyRef(ref, namespace))
        unit = spec.parent
      }
    }
  await Promise.all([base.tools([...tools]), base.servers([...servers]), after.tools([...tools]), after.servers([...servers])])
}
