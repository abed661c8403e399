// The global search behind the portal's Ctrl-K palette.
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { SEARCH_KINDS, searchEverything } from '@/lib/search/search-everything'

const agentRef = z.object({ id: z.string(), namespace: z.string(), name: z.string() })

export const searchResultSchema = z
  .object({
    query: z.string(),
    resources: z.array(z.object({ kind: z.enum(SEARCH_KINDS), id: z.string(), namespace: z.string(), name: z.string(), description: z.string().nullable() })),
    approvals: z.array(
      z.object({ id: z.string(), status: z.string(), toolId: z.string(), level: z.string().nullable(), agent: agentRef, requestedAt: z.string() }),
    ),
    calls: z.array(z.object({ id: z.string(), toolId: z.string(), outcome: z.string(), agent: agentRef, startedAt: z.string() })),
  })
  .openapi('SearchResult')

export const SEARCH_CONTRACTS = {
  search: {
    method: 'GET',
    path: '/api/v1/search',
    operationId: 'search',
    tags: ['Search'],
    access: 'read',
    summary:
      "Global search: resources whose name (or a Tool's description) holds q, best matches first, per kind; waiting approvals whose tool or agent holds q; the latest calls of the tool q names and of the Tools and Agents found. A uuid finds that call or approval.",
    query: z.strictObject({
      q: z.string().trim().min(1, 'must not be empty').max(200),
      limit: z.coerce.number().int().min(1).max(20).default(5).openapi({ description: 'Hits per kind, for approvals and for calls' }),
    }),
    response: searchResultSchema,
  },
} satisfies Record<string, RouteContract>

export const searchRoutes = {
  search: route(SEARCH_CONTRACTS.search, async ({ query }) => searchEverything(query.q, query.limit)),
}
