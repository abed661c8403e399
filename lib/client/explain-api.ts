// The portal's calls of the explainer and of "Agents with this tool" (lib/api/explain-routes.ts).
import type { Comparison } from '@/lib/explain/comparison-schema'
import type { AgentsWithToolPage, Explanation } from '@/lib/explain/explanation-schema'
import type { ToolState } from '@/lib/effective-tools/types'
import { apiFetch, qs } from './api'

export type { AgentsWithToolPage, Explanation }

export interface ExplainBody {
  tool: string
  arguments?: Record<string, unknown>
  idempotencyKey?: string
}

export function explainCall(agentId: string, namespace: string | undefined, body: ExplainBody) {
  return apiFetch<Explanation>(`/api/v1/agents/${encodeURIComponent(agentId)}/explain${qs({ namespace })}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

export function listAgentsWithTool(toolId: string, namespace: string | undefined, params: { state?: ToolState; limit?: number }, cursor?: string | null) {
  return apiFetch<AgentsWithToolPage>(`/api/v1/tools/${encodeURIComponent(toolId)}/agents${qs({ namespace, ...params, cursor })}`)
}

export type { Comparison }

/** Two effective sets side by side: `other` is `namespace/name` (or a bare name in the agent's namespace). */
export function compareEffectiveTools(agentId: string, namespace: string | undefined, other: { kind: 'Agent' | 'Unit'; ref: string }) {
  const slash = other.ref.indexOf('/')
  const [withNamespace, name] = slash > 0 ? [other.ref.slice(0, slash), other.ref.slice(slash + 1)] : [undefined, other.ref]
  return apiFetch<Comparison>(`/api/v1/agents/${encodeURIComponent(agentId)}/compare${qs({ namespace, with: name, withKind: other.kind, withNamespace })}`)
}
