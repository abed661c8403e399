// Discovery: ask for a run now, see recent runs and surface changes, decide held changes.
import { z } from '@/lib/http/zod'
import { auditContextOf } from '@/lib/audit/audit-actor'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { decideSurfaceChange } from '@/lib/discovery/decide-surface-change'
import { listDiscoveryRuns, listSurfaceChanges } from '@/lib/discovery/list-discovery'
import { requestRefresh } from '@/lib/discovery/request-refresh'
import { fieldErrorSchema } from '@/lib/http/problem-schema'
import { DISCOVERY_RUN_STATUSES, DISCOVERY_SUBJECT_KINDS, SURFACE_CHANGE_STATUSES } from '@/lib/discovery/discovery-states'
import { DISCOVERY_TRIGGERS } from '@/lib/jobs/discovery-triggers'
import { idParams, pageSchema } from './schemas'

const namespaceOnly = z.strictObject({ namespace: z.string().max(63).optional() })
const listQuery = z.strictObject({
  subjectKind: z.enum(DISCOVERY_SUBJECT_KINDS).optional(),
  subjectId: z.string().uuid().optional(),
  status: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(1000).optional(),
})
const subjectKind = z.enum(DISCOVERY_SUBJECT_KINDS)
const queued = z
  .object({ queued: z.boolean(), subject: z.object({ kind: subjectKind, id: z.string(), name: z.string(), namespace: z.string() }) })
  .openapi('DiscoveryQueued')

/** An entry a run left out: an image tool's broken rule (field, rule, message, its name if it had one), or an MCP tool's name and why. */
const refusedEntry = fieldErrorSchema.partial().extend({ reason: z.string().optional() })

/** What runs and changes say of themselves and their subject. */
const subjectFields = { id: z.string().uuid(), subjectKind, subjectId: z.string().uuid(), namespace: z.string(), name: z.string() }

export const discoveryRunSchema = z
  .object({
    ...subjectFields,
    trigger: z.enum(DISCOVERY_TRIGGERS),
    status: z.enum(DISCOVERY_RUN_STATUSES),
    attempt: z.number().int(),
    digest: z.string().nullable().openapi({ description: 'The image digest introspected (images only)' }),
    toolCount: z.number().int().nullable(),
    error: z.string().nullable(),
    details: z
      .object({
        endpoint: z.string().optional(),
        refused: z.array(refusedEntry).optional(),
        attempts: z.number().int().optional().openapi({ description: 'Readiness attempts (images)' }),
        timings: z.object({ readyMs: z.number().optional(), toolsMs: z.number().optional(), listMs: z.number().optional() }).optional(),
        agentCard: z.object({ name: z.string().optional(), version: z.string().optional() }).nullable().optional(),
        diff: z.string().optional().openapi({ description: 'The change in one line: "+ added, − removed, ~ changed (fields)"' }),
        step: z.string().optional().openapi({ description: 'Where a failed image run stopped: readiness or tools' }),
        failure: z.string().optional().openapi({ description: 'How a failed image run failed: refused, timeout, http_status, …' }),
        transport: z.string().optional().openapi({ description: 'The transport an MCP run reached the server by' }),
        health: z.string().optional(),
        held: z.boolean().optional().openapi({ description: 'Whether changed definitions were held for review (pinning)' }),
      })
      .nullable()
      .openapi({
        description:
          'What the run recorded: images their endpoint, refused entries, readiness attempts, timings and agent card; MCP servers their transport, health, refused entries and timings; a failed run where and how it failed',
      }),
    startedAt: z.string().openapi({ format: 'date-time' }),
    finishedAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('DiscoveryRun')

/** One tool of a surface as discovered (an image tool, an MCP tools/list entry): kept as the source described it. */
export const surfaceToolSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.unknown().optional(),
    annotations: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown())
  .openapi('SurfaceTool')

export const surfaceDiffSchema = z
  .object({
    added: z.array(surfaceToolSchema),
    removed: z.array(surfaceToolSchema),
    changed: z.array(z.object({ name: z.string(), fields: z.array(z.string()), before: surfaceToolSchema, after: surfaceToolSchema })),
    reordered: z.boolean(),
    refused: z
      .array(refusedEntry)
      .optional()
      .openapi({ description: 'The entries the run left out of the surface (beyond the limits of tool definitions, unusable names, duplicates), with why' }),
  })
  .openapi('SurfaceDiff')

export const surfaceChangeSchema = z
  .object({
    ...subjectFields,
    runId: z.string().uuid().nullable(),
    diff: surfaceDiffSchema,
    status: z.enum(SURFACE_CHANGE_STATUSES).openapi({ description: 'applied (agents see it), pending_review (held by pinning), accepted, rejected' }),
    proposed: z.array(surfaceToolSchema).nullable().openapi({ description: 'For held changes: the whole surface that would replace the accepted one' }),
    decidedBy: z.string().nullable(),
    decidedAt: z.string().nullable().openapi({ format: 'date-time' }),
    comment: z.string().nullable(),
    detectedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SurfaceChange')
const runSchema = discoveryRunSchema
const changeSchema = surfaceChangeSchema

const refresh = (plural: string, kind: 'Agent' | 'Unit' | 'LanguageTool') =>
  ({
    method: 'POST',
    path: `/api/v1/${plural}/{id}/refresh`,
    operationId: `refresh${kind}`,
    tags: ['Discovery'],
    access: 'write',
    summary: `Run discovery for this ${kind} now`,
    params: idParams,
    query: namespaceOnly,
    response: queued,
    successStatus: 202,
  }) satisfies RouteContract

export const DISCOVERY_CONTRACTS = {
  refreshAgent: refresh('agents', 'Agent'),
  refreshUnit: refresh('units', 'Unit'),
  refreshLanguageTool: refresh('languagetools', 'LanguageTool'),
  runs: {
    method: 'GET',
    path: '/api/v1/discovery/runs',
    operationId: 'listDiscoveryRuns',
    tags: ['Discovery'],
    access: 'read',
    summary: 'Recent discovery runs, newest first',
    query: listQuery,
    response: pageSchema(runSchema, 'DiscoveryRunPage'),
  },
  changes: {
    method: 'GET',
    path: '/api/v1/discovery/changes',
    operationId: 'listSurfaceChanges',
    tags: ['Discovery'],
    access: 'read',
    summary: 'Tool surface changes, newest first; ?status=pending_review for those held by pinning',
    query: listQuery,
    response: pageSchema(changeSchema, 'SurfaceChangePage'),
  },
  accept: {
    method: 'POST',
    path: '/api/v1/discovery/changes/{id}/accept',
    operationId: 'acceptSurfaceChange',
    tags: ['Discovery'],
    access: 'write',
    summary: 'Accept a held change: agents see the new definitions',
    params: z.object({ id: z.string().uuid() }),
    body: z.strictObject({ comment: z.string().max(2000).optional() }),
    response: changeSchema,
  },
  reject: {
    method: 'POST',
    path: '/api/v1/discovery/changes/{id}/reject',
    operationId: 'rejectSurfaceChange',
    tags: ['Discovery'],
    access: 'write',
    summary: 'Reject a held change: agents keep the accepted definitions',
    params: z.object({ id: z.string().uuid() }),
    body: z.strictObject({ comment: z.string().max(2000).optional() }),
    response: changeSchema,
  },
} satisfies Record<string, RouteContract>

function refreshRoute(contract: RouteContract & { params: typeof idParams; query: typeof namespaceOnly }, kind: 'Agent' | 'Unit' | 'LanguageTool') {
  return route(contract, async (ctx) => requestRefresh(kind, ctx.params.id, ctx.query.namespace, auditContextOf(ctx)))
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
