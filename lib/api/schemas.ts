// Request and answer schemas of the REST API. They validate requests in the route wrapper and are
// the source of the OpenAPI document.
import { z } from '@/lib/http/zod'
import { KIND_DEFINITIONS, type Kind } from '@/lib/manifests/kinds'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { MAX_PAGE_SIZE } from '@/lib/http/pagination'
import { TIERS } from '@/lib/effective-tools/types'
import { RESOURCE_SORTS } from '@/lib/resources/list-order'

export const fieldErrorSchema = z
  .object({
    document: z.number().int().optional(),
    kind: z.string().optional(),
    name: z.string().optional(),
    field: z.string(),
    rule: z.string(),
    message: z.string(),
  })
  .openapi('FieldError')

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    requestId: z.string().optional(),
    errors: z.array(fieldErrorSchema).optional(),
  })
  .openapi('Problem')

export const metadataOut = z.object({
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.string()),
  generation: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
})

export function resourceSchema(kind: Kind) {
  return z
    .object({
      id: z.string().uuid(),
      apiVersion: z.string(),
      kind: z.literal(kind),
      metadata: metadataOut,
      spec: kind === 'Secret' ? z.object({ type: z.string(), keys: z.array(z.string()) }) : (KIND_DEFINITIONS[kind].spec as z.ZodType),
      status: z.record(z.string(), z.unknown()).optional(),
    })
    .openapi(`${kind}Resource`)
}

/** Body of a REST create or replace: a manifest document; apiVersion and kind may be left out. */
export function resourceInputSchema(kind: Kind) {
  return z
    .object({
      apiVersion: z.string().optional(),
      kind: z.string().optional(),
      metadata: z.record(z.string(), z.unknown()),
      spec: z.unknown(),
    })
    .passthrough()
    .openapi(`${kind}Input`, { description: `A ${kind} manifest document; see the ${kind}Resource spec for its fields.` })
}

export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() }).openapi(name)

const labelSelector = z
  .array(z.string().regex(/^[^=]+=[^=]*$/, 'must be "key=value"'))
  .max(20)
  .optional()
  .openapi({ description: 'Label filter `key=value`; repeat for several (all must match).' })

export const listQuery = z.strictObject({
  namespace: z.string().max(63).optional(),
  q: z.string().max(200).optional().openapi({ description: 'Case-insensitive text search in names (and tool descriptions).' }),
  label: labelSelector,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  cursor: z.string().max(1000).optional(),
  sort: z
    .enum(RESOURCE_SORTS)
    .optional()
    .openapi({ description: 'Order: `namespace` (then name; the default), `name` (then namespace), `updated` (least recently changed first); a leading `-` reverses each (`-updated`: last changed first). A cursor continues the order it came from.' }),
})

export const toolListQuery = listQuery.extend({
  type: z.enum(['function', 'rest', 'mcp', 'os']).optional(),
  level: z.enum(SIDE_EFFECT_LEVELS).optional(),
})
const boundTo = z.string().max(63).optional().openapi({ description: 'Only those bound (on themselves) to this connector slug.' })
export const agentListQuery = listQuery.extend({ unit: z.string().max(63).optional(), connector: boundTo })
export const unitListQuery = listQuery.extend({ parent: z.string().max(63).optional(), connector: boundTo })

export const idParams = z.object({ id: z.string().min(1).max(253) })
export const namespaceQuery = z.strictObject({ namespace: z.string().max(63).optional() })

const annotationsSchema = z.object({ readOnly: z.boolean(), destructive: z.boolean(), idempotent: z.boolean(), openWorld: z.boolean() })

export const effectiveToolSchema = z
  .object({
    name: z.string(),
    namespace: z.string().nullable(),
    toolNamespace: z.string(),
    description: z.string(),
    inputSchema: z.unknown(),
    outputSchema: z.unknown().optional(),
    provenance: z.string().openapi({ description: '`platform`, `connector:<slug>`, `image:<digest>`, `mcp:<server>` or `grant`' }),
    tier: z.enum(TIERS),
    inheritedFromUnit: z.string().nullable(),
    source: z.object({ kind: z.string(), name: z.string(), namespace: z.string().nullable() }),
    type: z.enum(['function', 'rest', 'mcp', 'os']).nullable(),
    upstreamName: z.string().optional(),
    sideEffects: z.object({ level: z.enum(SIDE_EFFECT_LEVELS), levelSource: z.enum(['declared', 'annotations', 'default']), idempotent: z.boolean() }),
    requiresApproval: z.boolean(),
    approvalSource: z.enum(['tool', 'policy', 'default']),
    annotations: annotationsSchema,
    rateLimit: z.object({ callsPerMinute: z.number().int().nullable(), callsPerDay: z.number().int().nullable() }),
    state: z.enum(['enabled', 'disabled', 'shadowed', 'denied']),
    reason: z.string().nullable(),
    shadowedBy: z.string().optional(),
    totalCalls7d: z.number().int(),
    failureRate7d: z.number().nullable(),
  })
  .openapi('EffectiveTool')

export const unresolvedSchema = z
  .object({ field: z.string(), reference: z.string(), inheritedFromUnit: z.string().nullable(), message: z.string() })
  .openapi('UnresolvedReference')

export const effectiveToolsAnswer = z
  .object({
    effectiveTools: z.array(effectiveToolSchema),
    excluded: z.array(effectiveToolSchema).optional(),
    unresolved: z.array(unresolvedSchema),
  })
  .openapi('EffectiveToolSet')

export const withEffectiveTools = (kind: 'Agent' | 'Unit') =>
  resourceSchema(kind)
    .extend({ effectiveTools: z.array(effectiveToolSchema), unresolved: z.array(unresolvedSchema) })
    .openapi(`${kind}WithEffectiveTools`)

export const applyQuery = z.strictObject({
  dryRun: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
})

export const applyResultSchema = z
  .object({
    dryRun: z.boolean(),
    results: z.array(
      z.object({
        index: z.number().int(),
        kind: z.string(),
        apiVersion: z.string(),
        namespace: z.string(),
        name: z.string(),
        id: z.string().nullable(),
        action: z.enum(['created', 'updated', 'unchanged']),
      }),
    ),
    summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
  })
  .openapi('ApplyResult')

export const imageToolDefinition = z.object({ name: z.string(), description: z.string(), inputSchema: z.unknown() })

export const imageToolsUpload = z
  .object({
    digest: z.string().regex(/^sha256:[a-f0-9]{64}$/, 'must be "sha256:" and 64 hex digits').optional(),
    tools: z.array(z.unknown()).max(2000),
  })
  .openapi('ImageToolsUpload', { description: 'A tools manifest (the `GET /a2a/tools` array) for the subject\'s image.' })

export const imageToolsAnswer = z
  .object({
    digest: z.string().nullable(),
    source: z.string().nullable(),
    updatedAt: z.string().nullable(),
    tools: z.array(imageToolDefinition),
  })
  .openapi('ImageTools')

export const overviewSchema = z
  .object({
    counts: z.record(z.string(), z.number().int()),
    toolsByLevel: z.array(z.object({ level: z.string(), count: z.number().int() })),
    toolsByType: z.array(z.object({ type: z.string(), count: z.number().int() })),
    namespaces: z.array(z.string()),
    languageToolsByPhase: z.array(z.object({ phase: z.string(), count: z.number().int() })),
  })
  .openapi('Overview')
