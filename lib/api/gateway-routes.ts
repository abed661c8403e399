// Gateway routes outside /mcp: agent credentials (people manage them), the REST equivalent of
// `tools/call`, and the ingest of calls agents ran themselves (both for agents, by credential).
import { z } from '@/lib/http/zod'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { createAgentCredential, listAgentCredentials, revokeAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { callOverRest } from '@/lib/gateway/call-over-rest'
import { ingestCalls, ingestBody, INGEST_MAX_BODY_BYTES } from '@/lib/gateway/ingest-calls'
import { MAX_MCP_BODY_BYTES } from '@/lib/gateway/mcp-handler'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { getRow } from '@/lib/resources/resource-store'
import { idParams } from './schemas'

const credential = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string(),
    hint: z.string().openapi({ description: 'The first characters of the token' }),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    state: z.enum(['active', 'expired', 'revoked']),
  })
  .openapi('AgentCredential')
const namespaceOnly = z.strictObject({ namespace: z.string().max(63).optional() })
const callResult = z
  .object({
    callId: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The MCP tool result (content, structuredContent, isError)' }),
  })
  .openapi('GatewayCallAnswer')

export const GATEWAY_CONTRACTS = {
  createCredential: {
    method: 'POST', path: '/api/v1/agents/{id}/credentials', operationId: 'createAgentCredential', tags: ['Gateway'], access: 'admin',
    summary: 'Issue a gateway credential for the agent; the token is in this answer only', params: idParams, query: namespaceOnly,
    body: z.strictObject({ name: z.string().min(1).max(100), expiresInDays: z.number().int().min(1).max(3650).optional() }),
    response: credential.extend({ token: z.string().openapi({ description: 'Bearer token (tra_…); shown once, stored only as a hash' }) }), successStatus: 201,
  },
  listCredentials: {
    method: 'GET', path: '/api/v1/agents/{id}/credentials', operationId: 'listAgentCredentials', tags: ['Gateway'], access: 'read',
    summary: "The agent's gateway credentials (never the tokens)", params: idParams, query: namespaceOnly, response: z.object({ items: z.array(credential) }),
  },
  revokeCredential: {
    method: 'POST', path: '/api/v1/agents/{id}/credentials/{credentialId}/revoke', operationId: 'revokeAgentCredential', tags: ['Gateway'], access: 'admin',
    summary: 'Revoke a credential; gateways refuse it within a few seconds', params: idParams.extend({ credentialId: z.string().uuid() }), query: namespaceOnly,
    response: credential,
  },
  callTool: {
    method: 'POST', path: '/api/v1/gateway/tools/{toolId}/call', operationId: 'callToolOverRest', tags: ['Gateway'], access: 'agent',
    summary: 'Call a tool as the authenticated agent (the REST equivalent of MCP tools/call; same pipeline and record)',
    params: z.object({ toolId: z.string().min(1).max(256) }),
    body: z.strictObject({
      arguments: z.record(z.string(), z.unknown()).default({}),
      idempotencyKey: z.string().min(1).max(512).optional(),
      /** For tools that need approval: wait this long for the decision and the result instead of answering approval_required at once. */
      waitForApprovalSeconds: z.number().min(0).max(120).optional(),
    }),
    maxBodyBytes: MAX_MCP_BODY_BYTES,
    response: callResult,
  },
  ingest: {
    method: 'POST', path: '/api/v1/calls/ingest', operationId: 'ingestToolCalls', tags: ['Gateway'], access: 'agent',
    summary: 'Report calls the agent ran itself (image-tier tools). All or nothing: one invalid record refuses the batch, naming it',
    body: ingestBody, maxBodyBytes: INGEST_MAX_BODY_BYTES,
    response: z.object({ accepted: z.number().int(), duplicates: z.number().int() }), successStatus: 202,
  },
} satisfies Record<string, RouteContract>


export const gatewayRoutes = {
  createCredential: route(GATEWAY_CONTRACTS.createCredential, async ({ params, query, body, actor, requestId }) =>
    createAgentCredential(await getRow('Agent', params.id, query.namespace), body, auditActorOf(actor), requestId),
  ),
  listCredentials: route(GATEWAY_CONTRACTS.listCredentials, async ({ params, query }) => listAgentCredentials(await getRow('Agent', params.id, query.namespace))),
  revokeCredential: route(GATEWAY_CONTRACTS.revokeCredential, async ({ params, query, actor, requestId }) =>
    revokeAgentCredential(await getRow('Agent', params.id, query.namespace), params.credentialId, auditActorOf(actor), requestId),
  ),
  callTool: route(GATEWAY_CONTRACTS.callTool, async ({ params, body, actor, requestId, request }) =>
    callOverRest(actor.agent!, params.toolId, body.arguments, body.idempotencyKey, requestId, new URL(request.url).pathname, body.waitForApprovalSeconds),
  ),
  ingest: route(GATEWAY_CONTRACTS.ingest, async ({ body, actor, requestId }) => ingestCalls(actor.agent!, body.calls, requestId)),
}
