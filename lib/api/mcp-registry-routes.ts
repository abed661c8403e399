// The MCP Registry API (its /v0.1 read operations) over the LanguageTools: what MCP clients and
// enterprise catalogs already read (docs/design/registry-api.md).
import type { RouteContract } from '@/lib/http/contract'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { getServerVersion, listRegistryServers, listServerVersions } from '@/lib/mcp-registry/list-registry-servers'
import { registryServerListSchema, registryServerResponseSchema } from '@/lib/mcp-registry/registry-schemas'

// Toolroom deletes a LanguageTool outright: there is never a deleted entry to include.
const includeDeleted = z.enum(['true', 'false']).optional().openapi({ description: 'Accepted for the API; Toolroom keeps no deleted servers' })

const serverName = z
  .string()
  .min(3)
  .max(512)
  .openapi({ description: 'dev.toolroom.<namespace>/<name>, its slash URL-encoded (%2F)', example: 'dev.toolroom.support%2Fgithub' })

const registryEtag = { from: 'registry', varies: ['origin'] } as const

export const MCP_REGISTRY_CONTRACTS = {
  listServers: {
    method: 'GET',
    path: '/v0.1/servers',
    operationId: 'listRegistryServers',
    tags: ['MCP Registry'],
    access: 'read',
    summary: 'MCP Registry API: every LanguageTool as a server.json entry whose remote is the gateway, with its live tools under _meta',
    query: z.strictObject({
      cursor: z.string().max(2048).optional().openapi({ description: 'metadata.nextCursor of the previous page' }),
      limit: z.coerce.number().int().min(1).max(100).default(30),
      search: z.string().trim().min(1, 'must not be empty').max(200).optional().openapi({ description: 'Substring of the server name, any case' }),
      updated_since: z.iso
        .datetime({ offset: true, message: 'must be an RFC 3339 date-time, e.g. 2026-11-27T10:00:00Z' })
        .optional()
        .openapi({ description: 'Servers whose spec or tools changed after this time' }),
      version: z.string().min(1).max(255).optional().openapi({ description: '`latest`, or an exact version' }),
      include_deleted: includeDeleted,
    }),
    response: registryServerListSchema,
    etag: registryEtag,
  },
  listServerVersions: {
    method: 'GET',
    path: '/v0.1/servers/{serverName}/versions',
    operationId: 'listRegistryServerVersions',
    tags: ['MCP Registry'],
    access: 'read',
    summary: "MCP Registry API: a server's versions (Toolroom keeps one, the current)",
    params: z.object({ serverName }),
    query: z.strictObject({ include_deleted: includeDeleted }),
    response: registryServerListSchema,
    etag: registryEtag,
  },
  getServerVersion: {
    method: 'GET',
    path: '/v0.1/servers/{serverName}/versions/{version}',
    operationId: 'getRegistryServerVersion',
    tags: ['MCP Registry'],
    access: 'read',
    summary: 'MCP Registry API: one version of a server, `latest` for the current one',
    params: z.object({ serverName, version: z.string().min(1).max(255) }),
    query: z.strictObject({ include_deleted: includeDeleted }),
    response: registryServerResponseSchema,
    etag: registryEtag,
  },
} satisfies Record<string, RouteContract>

const C = MCP_REGISTRY_CONTRACTS

export const mcpRegistryRoutes = {
  listServers: route(C.listServers, async ({ query, request }) =>
    listRegistryServers(
      {
        cursor: query.cursor,
        limit: query.limit,
        search: query.search,
        updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        version: query.version,
      },
      publicOrigin(request),
    ),
  ),
  listServerVersions: route(C.listServerVersions, async ({ params, request }) => listServerVersions(params.serverName, publicOrigin(request))),
  getServerVersion: route(C.getServerVersion, async ({ params, request }) => getServerVersion(params.serverName, params.version, publicOrigin(request))),
}
