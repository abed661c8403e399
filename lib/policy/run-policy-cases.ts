// A Policy against sample calls, for CI (docs/design/policy.md#testing): each case's call is judged by
// evaluatePolicies, the function the gateway runs, and its effect compared with the one expected. Pure.
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import { compilePolicy, denialMessage, evaluatePolicies, type PolicyDecision, policyReaches } from './evaluate-policies'
import type { PolicyTestCase, PolicyTestEffect, PolicyTestResult } from '@/lib/manifests/specs/policy-test'

export function runPolicyCases(
  policy: { namespace: string; name: string; spec: PolicySpec; source: 'applied' | 'request' },
  cases: readonly PolicyTestCase[],
  requestTime: Date,
): PolicyTestResult {
  const compiled = compilePolicy(policy.namespace, policy.name, policy.spec)
  const results = cases.map((c, index) => {
    const agent = {
      namespace: c.agent.namespace ?? policy.namespace,
      name: c.agent.name ?? 'test-agent',
      labels: c.agent.labels ?? {},
      units: c.agent.units ?? [],
    }
    const tool = typeof c.tool === 'string' ? { id: c.tool } : c.tool
    const call = {
      agent,
      tool: {
        id: tool.id,
        level: tool.level ?? 'read_only',
        labels: tool.labels ?? {},
        source: tool.source
          ? { kind: tool.source.kind, namespace: tool.source.namespace ?? null, name: tool.source.name }
          : { kind: 'Tool', namespace: agent.namespace, name: tool.id },
      },
      args: c.args,
      person: c.person ? { displayName: c.person.id, email: null, groups: [], claims: {}, ...c.person } : null,
      now: c.now ? new Date(c.now) : requestTime,
    }
    const reached = policyReaches(compiled, agent, tool.id)
    const decision = evaluatePolicies([compiled], call)
    const effect = effectOf(decision)
    return {
      index,
      name: c.name ?? null,
      expect: c.expect,
      effect,
      pass: effect === c.expect,
      reached,
      message: messageOf(tool.id, decision),
      rules: decision.trace.map((t) => ({
        rule: t.rule,
        effect: t.effect,
        reason: t.reason,
        outcome: t.outcome,
        values: t.values,
        ...(t.error ? { error: t.error } : {}),
      })),
    }
  })
  const passed = results.filter((r) => r.pass).length
  return {
    policy: { namespace: policy.namespace, name: policy.name, source: policy.source },
    passed,
    failed: results.length - passed,
    cases: results,
  }
}

/** The strongest thing the decision does to the call, as the gateway acts on it. */
function effectOf(decision: PolicyDecision): PolicyTestEffect {
  if (decision.deny) return decision.deny.error ? 'error' : 'deny'
  if (decision.approvals.length > 0) return 'require_approval'
  if (decision.limits.length > 0) return 'limit'
  if (decision.redactFields.length > 0) return 'redact'
  return 'allow'
}

function messageOf(toolId: string, decision: PolicyDecision): string | null {
  if (decision.deny) return denialMessage(toolId, decision.deny)
  if (decision.approvals.length > 0) return `${toolId} waits for approval: ${decision.approvals.map((a) => `${a.reason} (rule ${a.rule})`).join('; ')}`
  return null
}
