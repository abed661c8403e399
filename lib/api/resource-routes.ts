// CRUD routes for every registry kind, from one definition: contracts (for the wrapper and OpenAPI)
// and handlers. Create and replace go through the same validation as apply.
import { auditContextOf } from '@/lib/audit/audit-actor'
import { adminOnlyError, isAdminOnlyKind } from '@/lib/auth/admin-only-kinds'
import type { Access } from '@/lib/auth/access-rules'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import type { LabelRequirement, LabelSelector } from '@/lib/labels/label-selector'
import { KIND_DEFINITIONS, type Kind } from '@/lib/manifests/kinds'
import { createResource, replaceResource } from '@/lib/apply/write-resource'
import { deleteResource, getRow, listResources, type ListFilters } from '@/lib/resources/resource-store'
import { subjectAnswer } from '@/lib/effective-tools/subject-answers'
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

/**
 * Kinds whose answers come from tables that announce their changes (the registry epoch), so they carry
 * an ETag. Secret rows announce nothing (a rotation must not drop every cached effective set).
 */
const REGISTRY_DERIVED: ReadonlySet<Kind> = new Set(['Tool', 'LanguageTool', 'Connector', 'Unit', 'Agent', 'SideEffectPolicy', 'Policy'])

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
  const conditional = REGISTRY_DERIVED.has(kind) ? { etag: { from: 'registry' } as const } : {}
  return {
    list: {
      method: 'GET',
      path: base,
      operationId: `list${kind}s`,
      summary: `List ${kind} resources`,
      tags,
      access: 'read',
      query: LIST_QUERIES[kind] ?? listQuery,
      response: pageSchema(resourceSchema(kind), `${kind}Page`),
      yamlAnswer: true,
      ...conditional,
    },
    create: {
      method: 'POST',
      path: base,
      operationId: `create${kind}`,
      summary: `Create a ${kind}`,
      tags,
      ...change,
      body: resourceInputSchema(kind),
      response: resourceSchema(kind),
      successStatus: 201,
    },
    get: {
      method: 'GET',
      path: `${base}/{id}`,
      operationId: `get${kind}`,
      summary: `Get a ${kind} by id, or by name with ?namespace=`,
      tags,
      access: 'read',
      params: idParams,
      query: namespaceQuery,
      response: one,
      yamlAnswer: true,
      ...conditional,
    },
    replace: {
      method: 'PUT',
      path: `${base}/{id}`,
      operationId: `replace${kind}`,
      summary: `Replace a ${kind}'s labels and spec`,
      tags,
      ...change,
      params: idParams,
      query: namespaceQuery,
      body: resourceInputSchema(kind),
      response: resourceSchema(kind),
    },
    remove: {
      method: 'DELETE',
      path: `${base}/{id}`,
      operationId: `delete${kind}`,
      summary: `Delete a ${kind}`,
      tags,
      ...change,
      params: idParams,
      query: namespaceQuery,
      successStatus: 204,
    },
  } satisfies Record<string, RouteContract>
}

function filtersFrom(kind: Kind, query: Record<string, unknown>): ListFilters {
  // `label=key=value` is the older, narrower form of `labelSelector=key=value`: both must hold.
  const requirements: LabelRequirement[] = [...((query.labelSelector as LabelSelector | undefined)?.requirements ?? [])]
  for (const pair of (query.label as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=')
    requirements.push({ key: pair.slice(0, eq), operator: 'equals', values: [pair.slice(eq + 1)] })
  }
  const columns: Record<string, unknown> = {}
  for (const column of COLUMN_FILTERS[kind] ?? []) if (typeof query[column] === 'string') columns[column] = query[column]
  if (typeof query.connector === 'string') columns.connectors = { has: query.connector }
  return {
    namespace: query.namespace as string | undefined,
    q: query.q as string | undefined,
    labelSelector: { requirements },
    columns,
    limit: query.limit as number | undefined,
    cursor: query.cursor as string | undefined,
    sort: query.sort as ResourceSort | undefined,
  }
}

export function resourceRoutes(kind: Kind) {
  const c = resourceContracts(kind)
  return {
    list: route(c.list, async ({ query }) => listResources(kind, filtersFrom(kind, query))),
    create: route(c.create, async (ctx) => createResource(kind, ctx.body, { audit: auditContextOf(ctx), caller: ctx.actor })),
    get: route(c.get, async ({ params, query }) => {
      if (kind !== 'Agent' && kind !== 'Unit') return toResourceView(kind, await getRow(kind, params.id, query.namespace))
      return subjectAnswer(kind, params.id, query.namespace)
    }),
    replace: route(c.replace, async (ctx) =>
      replaceResource(kind, ctx.params.id, ctx.query.namespace, ctx.body, { audit: auditContextOf(ctx), caller: ctx.actor }),
    ),
    remove: route(c.remove, async (ctx) => {
      await deleteResource(kind, ctx.params.id, ctx.query.namespace, auditContextOf(ctx))
      return null
    }),
  }
}
