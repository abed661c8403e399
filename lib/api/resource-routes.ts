// CRUD routes for every registry kind, from one definition: contracts (for the wrapper and OpenAPI)
// and handlers. Create and replace go through the same validation as apply.
import { auditContextOf } from '@/lib/audit/audit-actor'
import { adminOnlyError, isAdminOnlyKind } from '@/lib/auth/admin-only-kinds'
import type { Access } from '@/lib/auth/authenticate'
import { AppError } from '@/lib/errors/app-error'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { applyDocuments } from '@/lib/manifests/apply-documents'
import { KIND_DEFINITIONS, type Kind, TOOLROOM_API_VERSION } from '@/lib/manifests/kinds'
import { deleteResource, getResource, getRow, listResources, type ListFilters } from '@/lib/resources/resource-store'
import { cachedBody } from '@/lib/effective-tools/answer-cache'
import { getEffectiveTools } from '@/lib/effective-tools/get-effective-tools'
import { toolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { toResourceView } from '@/lib/resources/resource-view'
import type { ResourceSort } from '@/lib/resources/list-order'
import {
  agentListQuery,
  idParams,
  listQuery,
  namespaceQuery,
  pageSchema,
  resourceInputSchema,
  resourceSchema,
  toolListQuery,
  unitListQuery,
  withEffectiveTools,
} from './schemas'

const LIST_QUERIES: Partial<Record<Kind, typeof listQuery>> = { Tool: toolListQuery, Agent: agentListQuery, Unit: unitListQuery }
/** Query parameters that filter on a promoted column of the kind's table. */
const COLUMN_FILTERS: Partial<Record<Kind, string[]>> = { Tool: ['type', 'level'], Agent: ['unit'], Unit: ['parent'] }

/** Who may create, replace and delete resources of the kind: operators, or admins only for admin-only kinds. */
function changeAccess(kind: Kind): { access: Access; accessRule?: ReturnType<typeof adminOnlyError> } {
  return isAdminOnlyKind(kind) ? { access: 'admin', accessRule: adminOnlyError(kind) } : { access: 'write' }
}

export function resourceContracts(kind: Kind) {
  const { plural } = KIND_DEFINITIONS[kind]
  const change = changeAccess(kind)
  const base = `/api/v1/${plural}`
  const tags = [kind]
  const one = kind === 'Agent' || kind === 'Unit' ? withEffectiveTools(kind) : resourceSchema(kind)
  return {
    list: {
      method: 'GET', path: base, operationId: `list${kind}s`, summary: `List ${kind} resources`, tags, access: 'read',
      query: LIST_QUERIES[kind] ?? listQuery, response: pageSchema(resourceSchema(kind), `${kind}Page`),
    },
    create: {
      method: 'POST', path: base, operationId: `create${kind}`, summary: `Create a ${kind}`, tags, ...change,
      body: resourceInputSchema(kind), response: resourceSchema(kind), successStatus: 201,
    },
    get: {
      method: 'GET', path: `${base}/{id}`, operationId: `get${kind}`, summary: `Get a ${kind} by id, or by name with ?namespace=`, tags, access: 'read',
      params: idParams, query: namespaceQuery, response: one,
    },
    replace: {
      method: 'PUT', path: `${base}/{id}`, operationId: `replace${kind}`, summary: `Replace a ${kind}'s labels and spec`, tags, ...change,
      params: idParams, query: namespaceQuery, body: resourceInputSchema(kind), response: resourceSchema(kind),
    },
    remove: {
      method: 'DELETE', path: `${base}/{id}`, operationId: `delete${kind}`, summary: `Delete a ${kind}`, tags, ...change,
      params: idParams, query: namespaceQuery, successStatus: 204,
    },
  } satisfies Record<string, RouteContract>
}

function filtersFrom(kind: Kind, query: Record<string, unknown>): ListFilters {
  const labels: Record<string, string> = {}
  for (const pair of (query.label as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=')
    labels[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  const columns: Record<string, unknown> = {}
  for (const column of COLUMN_FILTERS[kind] ?? []) if (typeof query[column] === 'string') columns[column] = query[column]
  if (typeof query.connector === 'string') columns.connectors = { has: query.connector }
  return {
    namespace: query.namespace as string | undefined,
    q: query.q as string | undefined,
    labels,
    columns,
    limit: query.limit as number | undefined,
    cursor: query.cursor as string | undefined,
    sort: query.sort as ResourceSort | undefined,
  }
}

/** The document to write for a REST create or replace, with apiVersion and kind defaulted. */
function documentFrom(kind: Kind, body: Record<string, unknown>): Record<string, unknown> {
  const doc = { apiVersion: KIND_DEFINITIONS[kind].apiVersions[0] ?? TOOLROOM_API_VERSION, kind, ...body }
  if (doc.kind !== kind)
    throw new AppError('VALIDATION_FAILED', `this route takes ${kind} documents, not ${String(doc.kind)}`, [{ field: 'kind', rule: 'kind', message: `must be ${kind}` }])
  return doc
}

export function resourceRoutes(kind: Kind) {
  const c = resourceContracts(kind)
  return {
    list: route(c.list, async ({ query }) => listResources(kind, filtersFrom(kind, query))),
    create: route(c.create, async (ctx) => {
      const { results } = await applyDocuments([documentFrom(kind, ctx.body)], { expect: 'absent', audit: auditContextOf(ctx), caller: ctx.actor })
      return getResource(kind, results[0].id!)
    }),
    get: route(c.get, async ({ params, query }) => {
      if (kind !== 'Agent' && kind !== 'Unit') return toResourceView(kind, await getRow(kind, params.id, query.namespace))
      // Effective tool sets are the API's most read answer: kept, serialized, until the registry changes.
      // The entries carry 7-day call statistics: an answer is also as old as the stats it holds.
      const { version: statsVersion } = await toolStatsSnapshot()
      const body = await cachedBody(`${kind}:${query.namespace ?? ''}:${params.id}`, async () => {
        const row = await getRow(kind, params.id, query.namespace)
        const set = await getEffectiveTools(kind, row)
        return { ...toResourceView(kind, row), effectiveTools: set.tools, unresolved: set.unresolved }
      }, statsVersion)
      // A view of the cached bytes, not a copy.
      return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), { headers: { 'content-type': 'application/json' } })
    }),
    replace: route(c.replace, async (ctx) => {
      const { params, query, body } = ctx
      const existing = await getRow(kind, params.id, query.namespace)
      const doc = documentFrom(kind, body)
      const metadata = (doc.metadata ?? {}) as { name?: unknown; namespace?: unknown }
      if (metadata.name !== existing.name || (metadata.namespace ?? 'default') !== existing.namespace)
        throw new AppError('VALIDATION_FAILED', 'metadata.name and metadata.namespace cannot change; create a new resource instead', [
          { field: 'metadata.name', rule: 'immutable', message: `must stay "${existing.namespace}/${existing.name}"` },
        ])
      await applyDocuments([doc], { expect: 'present', audit: auditContextOf(ctx), caller: ctx.actor })
      return getResource(kind, existing.id)
    }),
    remove: route(c.remove, async (ctx) => {
      await deleteResource(kind, ctx.params.id, ctx.query.namespace, auditContextOf(ctx))
      return null
    }),
  }
}
