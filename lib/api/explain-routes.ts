// Questions the portal asks about access: "can agent X call tool Y, and why?" (the explainer) and
// "which agents have this Tool, and in what state?". Both only read: the explainer calls nothing,
// counts against no limit, claims no idempotency key and writes no record, so `read` may ask it;
// what it tells is what a reader already sees (effective sets with reasons, Tool specs, policies,
// the calls explorer's keys), worked out the way the gateway works it out.
import { agentsWithTool } from '@/lib/effective-tools/agents-with-tool'
import { compareSubjects } from '@/lib/explain/compare-subjects'
import { comparisonQuery, comparisonSchema } from '@/lib/explain/comparison-schema'
import { explainCall } from '@/lib/explain/explain-call'
import { agentsWithToolQuery, agentsWithToolSchema, explainRequestSchema, explanationSchema } from '@/lib/explain/explanation-schema'
import { maxMcpBodyBytes } from '@/lib/gateway/mcp-handler'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { getRow } from '@/lib/resources/resource-store'
import { idParams } from './schemas'

export const EXPLAIN_CONTRACTS = {
  explain: {
    method: 'POST',
    path: '/api/v1/agents/{id}/explain',
    operationId: 'explainAgentCall',
    tags: ['Agent'],
    access: 'read',
    summary: "Can the agent call this tool, and why: the gateway's decision and full trace, without calling anything, counting a limit or writing a record",
    params: idParams,
    query: z.strictObject({ namespace: z.string().max(63).optional() }),
    body: explainRequestSchema,
    // Arguments are taken as the gateway takes them (text PostgreSQL cannot store included): nothing of them is stored.
    safeTextFields: ['arguments'],
    maxBodyBytes: maxMcpBodyBytes,
    response: explanationSchema,
  },
  agentsWithTool: {
    method: 'GET',
    path: '/api/v1/tools/{id}/agents',
    operationId: 'listAgentsWithTool',
    tags: ['Tool'],
    access: 'read',
    summary: 'Agents whose effective set holds this Tool, with its state there (enabled, disabled, denied, shadowed) and why',
    params: idParams,
    query: agentsWithToolQuery,
    response: agentsWithToolSchema,
  },
  compare: {
    method: 'GET',
    path: '/api/v1/agents/{id}/compare',
    operationId: 'compareAgentEffectiveTools',
    tags: ['Agent'],
    access: 'read',
    summary:
      "Two agents' (or an agent's and a unit's) effective tools side by side: what each can call that the other cannot, why not (the explainer's answer) and the fix draft",
    params: idParams,
    query: comparisonQuery,
    response: comparisonSchema,
  },
} satisfies Record<string, RouteContract>

export const explainRoutes = {
  explain: route(EXPLAIN_CONTRACTS.explain, async ({ params, query, body }) => explainCall(await getRow('Agent', params.id, query.namespace), body)),
  compare: route(EXPLAIN_CONTRACTS.compare, async ({ params, query }) => compareSubjects(params.id, query)),
  agentsWithTool: route(EXPLAIN_CONTRACTS.agentsWithTool, async ({ params, query }) => {
    const tool = await getRow('Tool', params.id, query.namespace)
    return agentsWithTool({ namespace: tool.namespace, name: tool.name }, { state: query.state, limit: query.limit, cursor: query.cursor })
  }),
}
