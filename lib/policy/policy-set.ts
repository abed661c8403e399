// The stored Policies, compiled once per registry epoch (lib/registry/registry-changes.ts), and the facts a
// call is judged on: the agent's labels and unit chain, the tool's labels. The gateway, the approved
// call's worker, ingest and the explainer all read them here.
import 'server-only'
import { prisma } from '@/lib/db'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { registryEpoch } from '@/lib/registry/registry-changes'
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import {
  type CompiledPolicy,
  compilePolicy,
  evaluateReaching,
  type EvaluationOptions,
  type PolicyDecision,
  type PolicyPerson,
  policyId,
  policyReaches,
  policyReachesAgent,
} from './evaluate-policies'
import { fastConditionSet } from './compile-fast-condition'

interface PolicyRegistry {
  policies: CompiledPolicy[]
  /** The Policies whose tool globs match a tool id, filled as ids are called: a Policy that names other tools costs a call nothing. */
  byTool: Map<string, CompiledPolicy[]>
  /**
   * The Policies that reach an agent (namespace, name and labels) calling a tool id, filled as calls
   * come: a call evaluates only the rules of these, and tests no selector. Agents' labels are
   * registry state, so within an epoch they key the same set.
   */
  byAgentTool: Map<string, CompiledPolicy[]>
  /** Labels of the Tool resources that policies may read as `tool.labels`, by `namespace/name`. */
  toolLabels: Map<string, Record<string, string>>
}

async function loadRegistry(): Promise<PolicyRegistry> {
  const rows = await prisma.policy.findMany({ select: { namespace: true, name: true, spec: true }, orderBy: [{ namespace: 'asc' }, { name: 'asc' }] })
  // One set for the epoch: a sub-expression many Policies share is evaluated once per call.
  const shared = fastConditionSet()
  const policies = rows.map((r) => compilePolicy(r.namespace, r.name, r.spec as PolicySpec, shared))
  // Tool labels are read only when some policy could use them.
  const tools = policies.length ? await prisma.tool.findMany({ select: { namespace: true, name: true, labels: true } }) : []
  return {
    policies,
    byTool: new Map(),
    byAgentTool: new Map(),
    toolLabels: new Map(tools.map((t) => [`${t.namespace}/${t.name}`, (t.labels ?? {}) as Record<string, string>])),
  }
}

// Kept while the registry epoch does not move, as lib/gateway/epoch-memo.ts keeps its values; while the
// change listener is down nothing is kept (a change could go unnoticed).
let memo: { epoch: number; value: Promise<PolicyRegistry> } | null = null

export function policyRegistry(): Promise<PolicyRegistry> {
  const epoch = registryEpoch()
  if (epoch === null) return loadRegistry()
  if (memo?.epoch !== epoch) {
    const value = loadRegistry()
    memo = { epoch, value }
    value.catch(() => memo?.value === value && (memo = null))
  }
  return memo.value
}

/** Who calls, as a policy sees them. */
export interface PolicyAgent {
  namespace: string
  name: string
  labels: Record<string, string>
  /** The agent's unit and the units above it, nearest first. */
  units: string[]
}

/** What the policies that reach this call decide; with `trace`, every rule's outcome too (the explainer). */
export async function decidePolicies(
  agent: PolicyAgent,
  entry: EffectiveTool,
  args: Record<string, unknown>,
  person: PolicyPerson | null = null,
  now = new Date(),
  options: EvaluationOptions = {},
): Promise<PolicyDecision> {
  const registry = await policyRegistry()
  if (registry.policies.length === 0) return { deny: null, approvals: [], limits: [], redactFields: [], trace: [] }
  const source = entry.source
  return evaluateReaching(
    reachingCall(registry, agent, entry.name),
    {
      agent,
      tool: {
        id: entry.name,
        level: entry.sideEffects.level,
        labels: source.kind === 'Tool' ? (registry.toolLabels.get(`${source.namespace}/${source.name}`) ?? {}) : {},
        source: { kind: source.kind, namespace: source.namespace, name: source.name },
      },
      args,
      person,
      now,
    },
    options,
  )
}

const MAX_INDEXED_TOOLS = 10_000
const MAX_INDEXED_CALLS = 50_000

function reachingCall(registry: PolicyRegistry, agent: PolicyAgent, toolId: string): CompiledPolicy[] {
  const selecting = selectingTool(registry, toolId)
  if (selecting.length === 0) return selecting
  const key = JSON.stringify([agent.namespace, agent.name, toolId, agent.labels])
  let reaching = registry.byAgentTool.get(key)
  if (!reaching) {
    reaching = selecting.filter((p) => policyReaches(p, agent, toolId))
    if (registry.byAgentTool.size >= MAX_INDEXED_CALLS) registry.byAgentTool.clear()
    registry.byAgentTool.set(key, reaching)
  }
  return reaching
}

function selectingTool(registry: PolicyRegistry, toolId: string): CompiledPolicy[] {
  let selecting = registry.byTool.get(toolId)
  if (!selecting) {
    selecting = registry.policies.filter((p) => p.tools.some((glob) => glob.test(toolId)))
    if (registry.byTool.size >= MAX_INDEXED_TOOLS) registry.byTool.clear()
    registry.byTool.set(toolId, selecting)
  }
  return selecting
}

/** Names on each entry of an agent's set the Policies whose selector reaches it (left unset where none does). */
export async function policiesOnTools(
  agent: { namespace: string; name: string; labels: unknown },
  entries: Array<Pick<EffectiveTool, 'name' | 'policies'>>,
): Promise<void> {
  const registry = await policyRegistry()
  if (registry.policies.length === 0) return
  // The agent half of each selector once for the whole set, the tool half once per tool id and epoch
  // (selectingTool), not every Policy against every entry: an agent's set can hold hundreds of tools.
  const who = { namespace: agent.namespace, labels: (agent.labels ?? {}) as Record<string, string> }
  const reachingAgent = new Map(registry.policies.filter((p) => policyReachesAgent(p, who)).map((p) => [p, policyId(p)]))
  if (reachingAgent.size === 0) return
  for (const entry of entries) {
    const names: string[] = []
    for (const p of selectingTool(registry, entry.name)) {
      const id = reachingAgent.get(p)
      if (id) names.push(id)
    }
    if (names.length > 0) entry.policies = names
  }
}
