// What a Policy would reach, for Apply's dry run: the agents its selector takes in (its namespace and
// those it names, their labels) and, of their tools, those its tool globs match
// (docs/design/policy.md#reach).
import 'server-only'
import { prisma } from '@/lib/db'
import { agentTools } from '@/lib/gateway/agent-tools'
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import { compilePolicy, policyReaches } from '@/lib/policy/evaluate-policies'

export interface PolicyReach {
  namespace: string
  name: string
  /** The agents it reaches, each with the tools of its enabled set the policy selects. */
  agents: Array<{ namespace: string; name: string; tools: string[] }>
  /** Whether `agents` stops short (at MAX_REACH_AGENTS). */
  truncated: boolean
}

export const MAX_REACH_AGENTS = 500

export async function policyReach(policies: Array<{ namespace: string; name: string; spec: PolicySpec }>): Promise<PolicyReach[]> {
  if (policies.length === 0) return []
  const namespaces = [...new Set(policies.flatMap((p) => [p.namespace, ...(p.spec.selector.agents?.namespaces ?? [])]))]
  const agents = await prisma.agent.findMany({
    where: { namespace: { in: namespaces } },
    select: { id: true, namespace: true, name: true, labels: true },
    orderBy: [{ namespace: 'asc' }, { name: 'asc' }],
  })
  const out: PolicyReach[] = []
  for (const p of policies) {
    const compiled = compilePolicy(p.namespace, p.name, p.spec)
    const reached: PolicyReach['agents'] = []
    let truncated = false
    for (const agent of agents) {
      const who = { namespace: agent.namespace, name: agent.name, labels: (agent.labels ?? {}) as Record<string, string>, units: [] }
      // Any tool id the globs match: the label and namespace parts of the selector decide here.
      if (!compiled.reach.has(agent.namespace) || !Object.entries(compiled.matchLabels).every(([k, v]) => who.labels[k] === v)) continue
      if (reached.length >= MAX_REACH_AGENTS) {
        truncated = true
        break
      }
      const tools = await agentTools(agent.id)
      const names = tools ? [...tools.enabled.keys()].filter((id) => policyReaches(compiled, who, id)).sort() : []
      reached.push({ namespace: agent.namespace, name: agent.name, tools: names })
    }
    out.push({ namespace: p.namespace, name: p.name, agents: reached, truncated })
  }
  return out
}
