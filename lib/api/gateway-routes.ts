// Gateway routes outside /mcp, for agents (by credential): the REST equivalent of `tools/call`, and
// the ingest of calls agents ran themselves. People manage the credentials in agent-credential-routes.ts.
import { z } from '@/lib/http/zod'
import { callOverRest } from '@/lib/gateway/call-over-rest'
import { ingestCalls, ingestBody, INGEST_MAX_BODY_BYTES } from '@/lib/gateway/ingest-calls'
import { maxMcpBodyBytes } from '@/lib/gateway/mcp-handler'
import type { RouteContract } from '@/lib/http/contract'
import { problemSchema } from '@/lib/http/problem-schema'
import { route } from '@/lib/http/route'

const callResult = z
  .object({
    callId: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The MCP tool result (content, structuredContent, isError)' }),
  })
  .openapi('GatewayCallAnswer')

const callProblem = problemSchema
  .extend({
    // Absent when the request never reached the pipeline (no credential, a body that does not parse).
    callId: z.string().nullable().optional().openapi({ description: 'The recorded call (null when nothing was recorded)' }),
    rpcCode: z.number().int().optional().openapi({ description: 'The JSON-RPC error code the same call over MCP answers' }),
    data: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The JSON-RPC error data: outcome, reason, violations, retryAfterSeconds, …' }),
  })
  .openapi('GatewayCallProblem')

export const GATEWAY_CONTRACTS = {
  callTool: {
    method: 'POST',
    path: '/api/v1/gateway/tools/{toolId}/call',
    operationId: 'callToolOverRest',
    tags: ['Gateway'],
    access: 'agent',
    summary: 'Call a tool as the authenticated agent (the REST equivalent of MCP tools/call; same pipeline and record)',
    params: z.object({ toolId: z.string().min(1).max(256) }),
    body: z.strictObject({
      arguments: z.record(z.string(), z.unknown()).default({}),
      idempotencyKey: z.string().min(1).max(512).optional(),
      /** For tools that need approval: wait this long for the decision and the result instead of answering approval_required at once. */
      waitForApprovalSeconds: z.number().min(0).max(120).optional(),
    }),
    safeTextFields: ['arguments'],
    maxBodyBytes: maxMcpBodyBytes,
    response: callResult,
    problem: callProblem,
  },
  ingest: {
    method: 'POST',
    path: '/api/v1/calls/ingest',
    operationId: 'ingestToolCalls',
    tags: ['Gateway'],
    access: 'agent',
    summary: 'Report calls the agent ran itself (image-tier tools). All or nothing: one invalid record refuses the batch, naming it',
    body: ingestBody,
    maxBodyBytes: INGEST_MAX_BODY_BYTES,
    safeTextFields: ['calls[*].args', 'calls[*].result'],
    response: z.object({ accepted: z.number().int(), duplicates: z.number().int() }),
    successStatus: 202,
  },
} satisfies Record<string, RouteContract>

export const gatewayRoutes = {
  callTool: route(GATEWAY_CONTRACTS.callTool, async ({ params, body, actor, requestId, request }) =>
    callOverRest(actor.agent!, params.toolId, body.arguments, body.idempotencyKey, requestId, new URL(request.url).pathname, body.waitForApprovalSeconds),
  ),
  ingest: route(GATEWAY_CONTRACTS.ingest, async ({ body, actor, requestId }) => ingestCalls(actor.agent!, body.calls, requestId)),
}
