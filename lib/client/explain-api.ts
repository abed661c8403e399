// The portal's calls of the explainer and of "Agents with this tool" (lib/api/explain-routes.ts).
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
