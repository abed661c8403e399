// Agent credentials for the gateway, as people manage them: per agent (issue, list, revoke) and
// across all agents (the Access tokens page). Answers never carry a token, except once at issue.
import { z } from '@/lib/http/zod'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { createAgentCredential, listAgentCredentials, revokeAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { CREDENTIAL_STATES, type CredentialView, type CredentialWithAgent } from '@/lib/agent-credentials/credential-view'
import { listAllAgentCredentials } from '@/lib/agent-credentials/list-all-agent-credentials'
import type { RouteContract } from '@/lib/http/contract'
import { MAX_PAGE_SIZE } from '@/lib/http/pagination'
import { route } from '@/lib/http/route'
import { getRow } from '@/lib/resources/resource-store'
import { idParams } from './schemas'

export const credentialSchema = z
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
    state: z.enum(CREDENTIAL_STATES),
  })
  .openapi('AgentCredential') satisfies z.ZodType<CredentialView>
export const credentialWithAgentSchema = credentialSchema
  .extend({ agent: z.object({ namespace: z.string(), name: z.string() }) })
  .openapi('AgentCredentialWithAgent') satisfies z.ZodType<CredentialWithAgent>
const namespaceOnly = z.strictObject({ namespace: z.string().max(63).optional() })

const listAllQuery = z.strictObject({
  status: z
    .enum([...CREDENTIAL_STATES, 'all'] as const)
    .default('all')
    .openapi({ description: 'Only credentials in this state (default `all`).' }),
  agent: z.string().trim().min(1).max(253).optional().openapi({ description: "Only this agent's: its id, `namespace/name`, or a name (in any namespace)." }),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: "Case-insensitive text in the credential's name or creator, or the agent's namespace/name." }),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(1000).optional(),
})

export const AGENT_CREDENTIAL_CONTRACTS = {
  createCredential: {
    method: 'POST',
    path: '/api/v1/agents/{id}/credentials',
    operationId: 'createAgentCredential',
    tags: ['Gateway'],
    access: 'admin',
    summary: 'Issue a gateway credential for the agent; the token is in this answer only. It expires after `expiresInDays` (default 90; `null` never expires)',
    params: idParams,
    query: namespaceOnly,
    body: z.strictObject({
      name: z.string().min(1).max(100),
      expiresInDays: z.number().int().min(1).max(3650).nullable().optional().openapi({ description: 'Days until it expires; default 90, `null` for never' }),
    }),
    response: credentialSchema.extend({ token: z.string().openapi({ description: 'Bearer token (tra_…); shown once, stored only as a hash' }) }),
    successStatus: 201,
  },
  listCredentials: {
    method: 'GET',
    path: '/api/v1/agents/{id}/credentials',
    operationId: 'listAgentCredentials',
    tags: ['Gateway'],
    access: 'read',
    summary: "The agent's gateway credentials (never the tokens)",
    params: idParams,
    query: namespaceOnly,
    response: z.object({ items: z.array(credentialSchema) }),
  },
  revokeCredential: {
    method: 'POST',
    path: '/api/v1/agents/{id}/credentials/{credentialId}/revoke',
    operationId: 'revokeAgentCredential',
    tags: ['Gateway'],
    access: 'admin',
    summary: 'Revoke a credential; gateways refuse it within a few seconds',
    params: idParams.extend({ credentialId: z.string().uuid() }),
    query: namespaceOnly,
    response: credentialSchema,
  },
  listAllCredentials: {
    method: 'GET',
    path: '/api/v1/agent-credentials',
    operationId: 'listAllAgentCredentials',
    tags: ['Gateway'],
    access: 'read',
    summary: 'Gateway credentials of every agent, newest first, with their agent (never the tokens)',
    query: listAllQuery,
    response: z
      .object({ items: z.array(credentialWithAgentSchema), total: z.number().int(), nextCursor: z.string().nullable() })
      .openapi('AgentCredentialPage'),
  },
} satisfies Record<string, RouteContract>

const C = AGENT_CREDENTIAL_CONTRACTS

export const agentCredentialRoutes = {
  createCredential: route(C.createCredential, async ({ params, query, body, actor, requestId }) =>
    createAgentCredential(await getRow('Agent', params.id, query.namespace), body, auditActorOf(actor), requestId),
  ),
  listCredentials: route(C.listCredentials, async ({ params, query }) => listAgentCredentials(await getRow('Agent', params.id, query.namespace))),
  revokeCredential: route(C.revokeCredential, async ({ params, query, actor, requestId }) =>
    revokeAgentCredential(await getRow('Agent', params.id, query.namespace), params.credentialId, auditActorOf(actor), requestId),
  ),
  listAllCredentials: route(C.listAllCredentials, async ({ query }) =>
    listAllAgentCredentials({ status: query.status, agent: query.agent, q: query.q || undefined, limit: query.limit, cursor: query.cursor }),
  ),
}
