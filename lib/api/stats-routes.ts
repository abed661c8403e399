// Statistics and the calls explorer: 7-day stats per resolved tool, agent, unit, namespace and overall
// (from the hourly rollups), the tools failing most, calls by person, and the recorded calls themselves.
import { z } from '@/lib/http/zod'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { getRow } from '@/lib/resources/resource-store'
import { CALL_CHANNELS, CALL_OUTCOMES } from '@/lib/stats/call-outcomes'
import { getCall, listCalls } from '@/lib/stats/list-calls'
import { exportCalls } from '@/lib/call-log/export-calls'
import { SOURCE_KINDS } from '@/lib/effective-tools/types'
import { type CallStats, type FailingTool, readCallStats, topFailingTools } from '@/lib/stats/read-call-stats'
import { readToolFailures } from '@/lib/stats/read-tool-failures'
import { type CallsByPerson, readCallsByPerson } from '@/lib/stats/read-calls-by-person'
import { MAX_TOOL_STAT_KEY_LENGTH, parseToolStatKey, toolResourceStatKey } from '@/lib/stats/tool-stat-key'
import { unitStatKeys } from '@/lib/stats/unit-stat-keys'
import { CANONICAL_TOOL_ID, MAX_TOOL_ID_LENGTH } from '@/lib/tools/naming'
import { idParams, onBehalfOfSchema } from './schemas'

const tags = ['Statistics']
const namespaceQuery = z.strictObject({ namespace: z.string().max(63).optional() })
const toolId = z.string().max(MAX_TOOL_ID_LENGTH).regex(CANONICAL_TOOL_ID, 'must be a canonical tool id such as github.create_issue')
const toolStatKey = z
  .string()
  .max(MAX_TOOL_STAT_KEY_LENGTH)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .refine((key) => parseToolStatKey(key) !== null, 'must be a tool stat key such as Tool/<namespace>/<name> or LanguageTool/<namespace>/<server>/<toolId>')
  .openapi({
    description:
      'The resolved tool: `Tool/<namespace>/<name>`, `Connector/<namespace>/<slug>/<toolId>`, `LanguageTool/<namespace>/<server>/<toolId>`, `Agent/<namespace>/<agent>/<toolId>` (image tools), `Platform/<toolId>` or `Unresolved/<toolId>`',
  })
const segment = z
  .string()
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'must be a tool namespace: the first segment of a tool id')

const statPoint = {
  calls: z.number().int(),
  failures: z.number().int(),
  refused: z.number().int(),
  failureRate: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  avgMs: z.number().nullable(),
}
export const callStatsSchema = z
  .object({
    dimension: z.enum(['tool', 'agent', 'unit', 'namespace', 'all']),
    key: z.string(),
    window: z.object({ from: z.string(), to: z.string() }),
    totals: z.object(statPoint),
    byDay: z.array(z.object({ day: z.string(), ...statPoint })),
    byHour: z.array(z.object({ hour: z.string(), ...statPoint })),
  })
  .openapi('CallStats', {
    description: 'Calls, failures (outcome failed), refusals, failure rate and latency percentiles over today and the six previous UTC days',
  }) satisfies z.ZodType<CallStats>

const nullableString = z.string().nullable()
/** One recorded call as the explorer lists it (arguments and results only in the detail). */
export const toolCallRow = z
  .object({
    id: z.string().uuid(),
    startedAt: z.string().openapi({ format: 'date-time' }),
    finishedAt: nullableString.openapi({ format: 'date-time' }),
    agentId: z.string(),
    agentNamespace: z.string(),
    agentName: z.string(),
    unit: nullableString,
    toolId: z.string(),
    toolNamespace: z.string(),
    toolKey: nullableString.openapi({ description: 'The resolved tool the call went to (see GET /api/v1/stats/tools?key=)' }),
    provenance: z.string(),
    level: nullableString,
    channel: z.enum(CALL_CHANNELS),
    outcome: z.enum(CALL_OUTCOMES),
    errorCode: nullableString,
    errorMessage: nullableString,
    upstreamExcerpt: nullableString.openapi({
      description:
        "What the upstream answered with its failure (an HTTP error's body, an MCP error object, an isError result's text), as stored: the gateway's injected secrets and the tool's redactFields values scrubbed, at most 2000 characters",
    }),
    latencyMs: z.number().int().nullable(),
    attempts: z.number().int(),
    idempotencyKey: nullableString.openapi({ description: 'As stored: keys that carried a secret are stored as a hash' }),
    requestId: nullableString,
    onBehalfOf: onBehalfOfSchema,
  })
  .openapi('ToolCall')
export const toolCallDetail = toolCallRow
  .extend({
    args: z.unknown().openapi({ description: 'Stored only where observability.logArgs allows, redactFields masked' }),
    result: z.unknown().openapi({ description: 'Stored only where observability.logResult allows, redactFields masked' }),
  })
  .openapi('ToolCallDetail')
const sourceRef = z.object({ kind: z.string(), namespace: z.string().nullable(), name: z.string() })
export const toolFailuresSchema = z
  .object({
    key: z.string(),
    toolId: z.string(),
    source: sourceRef.nullable(),
    stats: callStatsSchema,
    errors: z.array(
      z.object({
        code: z.string().openapi({ description: "The calls' error code ('' when they recorded none)" }),
        message: nullableString.openapi({
          description: "The message's first 200 characters; null for the messages counted together (beyond the 10 kept apart per code and hour, or none)",
        }),
        failures: z.number().int(),
        share: z.number().openapi({ description: "Share of the tool's failures in the window (0..1)" }),
        firstSeen: z.string().openapi({ description: 'The start of the hour of the first of these failures in the window (the rollups are hourly)' }),
        lastSeen: z.string().openapi({ description: 'The start of the hour of the last of these failures' }),
      }),
    ),
    agents: z.array(
      z.object({
        agentId: z.string(),
        namespace: nullableString.openapi({ description: 'null when the agent was deleted since' }),
        name: nullableString,
        calls: z.number().int(),
        failures: z.number().int(),
        refused: z.number().int(),
        failureRate: z.number().nullable(),
      }),
    ),
    agentsTotal: z.number().int().openapi({ description: 'How many agents called the tool in the window (the list holds the 20 with the most failures)' }),
    recent: z.array(toolCallRow).openapi({ description: 'The 10 latest failed calls, newest first' }),
  })
  .openapi('ToolFailures', {
    description: 'Why one resolved tool fails: failure rate by day and hour, top error codes and messages, calls by agent, latest failures',
  })

const isoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s))
const callsQuery = z.strictObject({
  agentId: z.string().uuid().optional(),
  agent: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .optional()
    .openapi({ description: "Only this agent's calls: `namespace/name`, a name (in any namespace), or its id" }),
  tool: toolId.optional(),
  toolKey: toolStatKey.optional().openapi({ description: 'Only calls of this resolved tool (`Tool/<namespace>/<name>`, …)' }),
  namespace: segment.optional(),
  outcome: z.enum(CALL_OUTCOMES).optional(),
  channel: z.enum(CALL_CHANNELS).optional(),
  from: isoDate.optional().openapi({ description: 'Calls started at or after this time (ISO 8601 with offset)' }),
  to: isoDate.optional().openapi({ description: 'Calls started before this time' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(1000).optional(),
})

const exportRange = z
  .strictObject({
    since: isoDate.openapi({ description: 'Calls started at or after this time (ISO 8601 with offset)' }),
    until: isoDate.optional().openapi({ description: 'Calls started before this time; default now' }),
  })
  .refine((q) => q.until === undefined || q.until > q.since, { path: ['until'], message: 'must be after since' })

export const failingToolSchema = z
  .object({
    key: z.string(),
    toolId: z.string(),
    source: z.object({ kind: z.enum(SOURCE_KINDS), namespace: z.string().nullable(), name: z.string() }).nullable(),
    calls: z.number().int(),
    failures: z.number().int(),
    refused: z.number().int(),
    failureRate: z.number(),
  })
  .openapi('FailingTool') satisfies z.ZodType<FailingTool>

export const callsByPersonSchema = z
  .object({
    window: z.object({ from: z.string(), to: z.string() }),
    items: z.array(
      z.object({
        onBehalfOf: onBehalfOfSchema.openapi({
          description: 'The person the calls were made for; null for the calls made for nobody (agents acting as services)',
        }),
        calls: z.number().int(),
        failures: z.number().int(),
        refused: z.number().int(),
        failureRate: z.number().nullable(),
        agents: z.number().int().openapi({ description: 'How many agents made these calls' }),
      }),
    ),
    total: z.number().int().openapi({ description: 'How many people (and "no person", when any) had calls in the window; items holds the first `limit`' }),
  })
  .openapi('CallsByPerson', {
    description: 'Calls, failures and refusals per person the calls were made for, over today and the six previous UTC days, most calls first',
  }) satisfies z.ZodType<CallsByPerson>

export const STATS_CONTRACTS = {
  overview: {
    method: 'GET',
    path: '/api/v1/stats/overview',
    operationId: 'getOverallCallStats',
    tags,
    access: 'read',
    summary: 'Statistics of every call, by day and by hour, over the last 7 days',
    response: callStatsSchema,
  },
  tool: {
    method: 'GET',
    path: '/api/v1/stats/tools/{id}',
    operationId: 'getToolCallStats',
    tags,
    access: 'read',
    summary: 'Statistics of one Tool resource (by id, or by name and ?namespace=) over the last 7 days: its own calls, not those of same-named tools elsewhere',
    params: idParams,
    query: namespaceQuery,
    response: callStatsSchema,
  },
  resolvedTool: {
    method: 'GET',
    path: '/api/v1/stats/tools',
    operationId: 'getResolvedToolCallStats',
    tags,
    access: 'read',
    summary: 'Statistics of any resolved tool (a Tool, a tool of a connector or LanguageTool, an image tool, a platform tool) by its key, over the last 7 days',
    query: z.strictObject({ key: toolStatKey }),
    response: callStatsSchema,
  },
  agent: {
    method: 'GET',
    path: '/api/v1/stats/agents/{id}',
    operationId: 'getAgentCallStats',
    tags,
    access: 'read',
    summary: "Statistics of an agent's calls over the last 7 days",
    params: idParams,
    query: namespaceQuery,
    response: callStatsSchema,
  },
  unit: {
    method: 'GET',
    path: '/api/v1/stats/units/{id}',
    operationId: 'getUnitCallStats',
    tags,
    access: 'read',
    summary: 'Statistics of the calls of agents in a unit and in every unit below it over the last 7 days',
    params: idParams,
    query: namespaceQuery,
    response: callStatsSchema,
  },
  namespace: {
    method: 'GET',
    path: '/api/v1/stats/namespaces/{namespace}',
    operationId: 'getToolNamespaceCallStats',
    tags,
    access: 'read',
    summary: 'Statistics of the tools in one tool namespace (first id segment) over the last 7 days',
    params: z.object({ namespace: segment }),
    response: callStatsSchema,
  },
  topFailing: {
    method: 'GET',
    path: '/api/v1/stats/top-failing-tools',
    operationId: 'listTopFailingTools',
    tags,
    access: 'read',
    summary: 'Tools with the most failed calls over the last 7 days',
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(10) }),
    response: z.object({ items: z.array(failingToolSchema) }),
  },
  byPerson: {
    method: 'GET',
    path: '/api/v1/stats/people',
    operationId: 'getCallStatsByPerson',
    tags,
    access: 'read',
    summary:
      'Calls by the person they were made for over the last 7 days (calls, failures, refusals, how many agents acted for them), with the calls made for nobody as one row',
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(200).default(20),
      issuer: z
        .string()
        .min(1)
        .max(2048)
        .optional()
        .openapi({ description: "Only the people of this issuer (an IdentityProvider's `spec.issuer`, or Toolroom's own `<origin>/api/auth`)" }),
    }),
    response: callsByPersonSchema,
  },
  toolFailures: {
    method: 'GET',
    path: '/api/v1/stats/tool-failures',
    operationId: 'getToolFailures',
    tags,
    access: 'read',
    summary:
      "Why one resolved tool fails, over the last 7 days: failure rate by day and hour, top error codes and messages with counts, calls and failures by agent, and its latest failed calls with the upstream's reply excerpt",
    query: z.strictObject({ key: toolStatKey }),
    response: toolFailuresSchema,
  },
  calls: {
    method: 'GET',
    path: '/api/v1/calls',
    operationId: 'listCalls',
    tags,
    access: 'read',
    summary: 'Recorded tool calls, newest first, without arguments and results',
    query: callsQuery,
    response: z.object({ items: z.array(toolCallRow), nextCursor: z.string().nullable() }),
  },
  exportCalls: {
    method: 'GET',
    path: '/api/v1/calls/export',
    operationId: 'exportCalls',
    tags,
    access: 'read',
    summary:
      'Recorded calls started in [since, until) as NDJSON, one ToolCallDetail per line (arguments and results as stored, redacted as the tool says), oldest first, streamed: for a log store or SIEM before the days pass TOOLROOM_CALL_RETENTION_DAYS',
    query: exportRange,
    response: z.string().openapi({ description: 'NDJSON: one ToolCallDetail per line' }),
    responseContentType: 'application/x-ndjson',
  },
  call: {
    method: 'GET',
    path: '/api/v1/calls/{id}',
    operationId: 'getCall',
    tags,
    access: 'read',
    summary: 'One recorded call with its stored arguments and result (redacted as the tool says before they were written)',
    params: z.object({ id: z.string().uuid() }),
    response: toolCallDetail,
  },
} satisfies Record<string, RouteContract>

export const statsRoutes = {
  overview: route(STATS_CONTRACTS.overview, async () => readCallStats('all', '')),
  tool: route(STATS_CONTRACTS.tool, async ({ params, query }) => {
    const tool = await getRow('Tool', params.id, query.namespace)
    return readCallStats('tool', toolResourceStatKey(tool.namespace, tool.name))
  }),
  resolvedTool: route(STATS_CONTRACTS.resolvedTool, async ({ query }) => readCallStats('tool', query.key)),
  agent: route(STATS_CONTRACTS.agent, async ({ params, query }) => readCallStats('agent', (await getRow('Agent', params.id, query.namespace)).id)),
  unit: route(STATS_CONTRACTS.unit, async ({ params, query }) => {
    const unit = await getRow('Unit', params.id, query.namespace)
    return readCallStats('unit', `${unit.namespace}/${unit.name}`, new Date(), await unitStatKeys(unit.namespace, unit.name))
  }),
  namespace: route(STATS_CONTRACTS.namespace, async ({ params }) => readCallStats('namespace', params.namespace)),
  topFailing: route(STATS_CONTRACTS.topFailing, async ({ query }) => ({ items: await topFailingTools(query.limit) })),
  byPerson: route(STATS_CONTRACTS.byPerson, async ({ query }) => readCallsByPerson(query.limit, { issuer: query.issuer })),
  toolFailures: route(STATS_CONTRACTS.toolFailures, async ({ query }) => readToolFailures(query.key)),
  calls: route(STATS_CONTRACTS.calls, async ({ query }) => listCalls(query)),
  exportCalls: route(STATS_CONTRACTS.exportCalls, async ({ query }) => {
    const until = query.until ?? new Date()
    const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-')
    return new Response(await exportCalls({ since: query.since, until }), {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="toolroom-calls-${stamp(query.since)}-${stamp(until)}.ndjson"`,
      },
    })
  }),
  call: route(STATS_CONTRACTS.call, async ({ params }) => getCall(params.id)),
}
