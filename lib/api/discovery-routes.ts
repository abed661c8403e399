// Discovery: ask for a run now, see recent runs and surface changes, decide held changes.
import { z } from '@/lib/http/zod'
import { auditContextOf } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { decideSurfaceChange } from '@/lib/discovery/decide-surface-change'
import { listDiscoveryRuns, listSurfaceChanges } from '@/lib/discovery/list-discovery'
import { enqueueDiscoveries } from '@/lib/discovery/schedule-discovery'
import { imageEndpointOf } from '@/lib/discovery/run-image-discovery'
import { AppError } from '@/lib/errors/app-error'
import { getRow } from '@/lib/resources/resource-store'
import { idParams } from './schemas'

const namespaceOnly = z.strictObject({ namespace: z.string().max(63).optional() })
const listQuery = z.strictObject({
  subjectKind: z.enum(['Agent', 'Unit', 'LanguageTool']).optional(),
  subjectId: z.string().uuid().optional(),
  status: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(1000).optional(),
})
const queued = z.object({ queued: z.boolean(), subject: z.object({ kind: z.string(), id: z.string(), name: z.string(), namespace: z.string() }) }).openapi('DiscoveryQueued')
const runSchema = z.record(z.string(), z.unknown()).openapi('DiscoveryRun')
const changeSchema = z.record(z.string(), z.unknown()).openapi('SurfaceChange')

const refresh = (plural: string, kind: 'Agent' | 'Unit' | 'LanguageTool') =>
  ({
    method: 'POST', path: `/api/v1/${plural}/{id}/refresh`, operationId: `refresh${kind}`, tags: ['Discovery'], access: 'write',
    summary: `Run discovery for this ${kind} now`, params: idParams, query: namespaceOnly, response: queued, successStatus: 202,
  }) satisfies RouteContract

export const DISCOVERY_CONTRACTS = {
  refreshAgent: refresh('agents', 'Agent'),
  refreshUnit: refresh('units', 'Unit'),
  refreshLanguageTool: refresh('languagetools', 'LanguageTool'),
  runs: {
    method: 'GET', path: '/api/v1/discovery/runs', operationId: 'listDiscoveryRuns', tags: ['Discovery'], access: 'read',
    summary: 'Recent discovery runs, newest first', query: listQuery, response: z.object({ items: z.array(runSchema), nextCursor: z.string().nullable() }),
  },
  changes: {
    method: 'GET', path: '/api/v1/discovery/changes', operationId: 'listSurfaceChanges', tags: ['Discovery'], access: 'read',
    summary: 'Tool surface changes, newest first; ?status=pending_review for those held by pinning', query: listQuery,
    response: z.object({ items: z.array(changeSchema), nextCursor: z.string().nullable() }),
  },
  accept: {
    method: 'POST', path: '/api/v1/discovery/changes/{id}/accept', operationId: 'acceptSurfaceChange', tags: ['Discovery'], access: 'write',
    summary: 'Accept a held change: agents see the new definitions', params: z.object({ id: z.string().uuid() }),
    body: z.strictObject({ comment: z.string().max(2000).optional() }), response: changeSchema,
  },
  reject: {
    method: 'POST', path: '/api/v1/discovery/changes/{id}/reject', operationId: 'rejectSurfaceChange', tags: ['Discovery'], access: 'write',
    summary: 'Reject a held change: agents keep the accepted definitions', params: z.object({ id: z.string().uuid() }),
    body: z.strictObject({ comment: z.string().max(2000).optional() }), response: changeSchema,
  },
} satisfies Record<string, RouteContract>

function refreshRoute(contract: RouteContract & { params: typeof idParams; query: typeof namespaceOnly }, kind: 'Agent' | 'Unit' | 'LanguageTool') {
  return route(contract, async (ctx) => {
    const { params, query } = ctx
    const row = await getRow(kind, params.id, query.namespace)
    if (kind === 'LanguageTool') await enqueueDiscoveries([{ job: 'mcp', id: row.id, trigger: 'manual' }])
    else {
      if (!imageEndpointOf(kind, row)) throw new AppError('VALIDATION_FAILED', `unit "${row.name}" runs no image of its own (spec.image and spec.endpoint)`, [{ field: 'spec.endpoint', rule: 'required', message: 'is required to introspect a unit image' }])
      await enqueueDiscoveries([{ job: 'image', kind, id: row.id, trigger: 'manual' }])
    }
    await recordAuditEvent({ ...auditContextOf(ctx), action: 'discovery.refresh_requested', kind, namespace: row.namespace, resource: row.name, resourceId: row.id })
    return { queued: true, subject: { kind, id: row.id, name: row.name, namespace: row.namespace } }
  })
}

export const discoveryRoutes = {
  refreshAgent: refreshRoute(DISCOVERY_CONTRACTS.refreshAgent, 'Agent'),
  refreshUnit: refreshRoute(DISCOVERY_CONTRACTS.refreshUnit, 'Unit'),
  refreshLanguageTool: refreshRoute(DISCOVERY_CONTRACTS.refreshLanguageTool, 'LanguageTool'),
  runs: route(DISCOVERY_CONTRACTS.runs, async ({ query }) => listDiscoveryRuns(query)),
  changes: route(DISCOVERY_CONTRACTS.changes, async ({ query }) => listSurfaceChanges(query)),
  accept: route(DISCOVERY_CONTRACTS.accept, async (ctx) => decideSurfaceChange(ctx.params.id, 'accept', auditContextOf(ctx), ctx.body.comment)),
  reject: route(DISCOVERY_CONTRACTS.reject, async (ctx) => decideSurfaceChange(ctx.params.id, 'reject', auditContextOf(ctx), ctx.body.comment)),
}
