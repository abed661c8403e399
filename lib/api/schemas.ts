// Request and answer schemas of the REST API. They validate requests in the route wrapper and are
// the source of the OpenAPI document.
import { z } from '@/lib/http/zod'
import { KIND_DEFINITIONS, type Kind, KINDS } from '@/lib/manifests/kinds'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { MAX_PAGE_SIZE } from '@/lib/http/pagination'
import { type EffectiveTool, SOURCE_KINDS, TIERS } from '@/lib/effective-tools/types'
import { CONDITION_TYPES, TOOL_PHASES } from '@/lib/tools/tool-conditions'
import { IDENTITY_PROVIDER_PHASES, REFUSAL_REASONS } from '@/lib/identity/identity-provider-conditions'
import { MAX_SELECTOR_LENGTH, parseLabelSelector } from '@/lib/labels/label-selector'
import { RESOURCE_SORTS } from '@/lib/resources/list-order'
import { resourceMetadataSchema } from '@/lib/resources/resource-metadata'

export const toolConditionSchema = z
  .object({
    type: z.enum(CONDITION_TYPES),
    status: z.enum(['True', 'False', 'Unknown']),
    reason: z.string().openapi({ description: 'One CamelCase word, e.g. `SecretNotFound`, `ServerFailed`, `RefusedByPolicy`, `HighFailureRate`' }),
    message: z.string(),
    lastTransitionTime: z.string().openapi({ description: 'When `status` last changed (ISO 8601)' }),
  })
  .openapi('ToolCondition')

export const toolStatusSchema = z
  .object({
    phase: z.enum(TOOL_PHASES).openapi({
      description: 'Failed: a condition a call needs is False; Degraded: one is Unknown, or recent calls mostly fail; Pending: not observed yet',
    }),
    conditions: z.array(toolConditionSchema),
    totalCalls7d: z.number().int(),
    failureRate7d: z.number().nullable(),
  })
  .openapi('ToolStatus')

export const identityProviderStatusSchema = z
  .object({
    phase: z.enum(IDENTITY_PROVIDER_PHASES).openapi({
      description:
        'Ready: its keys (JWKS) were fetched; Failed: they cannot be had, so its people cannot be acted for; Pending: no subject token of it checked yet',
    }),
    conditions: z.array(
      z.object({
        type: z.literal('KeysAvailable'),
        status: z.enum(['True', 'False']),
        reason: z.string().openapi({ description: 'KeysFetched, ProviderUnreachable, ProviderTimedOut, InvalidKeySet or DiscoveryFailed' }),
        message: z.string(),
        lastTransitionTime: z.string(),
      }),
    ),
    keys: z.object({
      fetchedAt: z.string().nullable().openapi({ description: 'When its key set was last fetched (ISO 8601)' }),
      count: z.number().int().nullable().openapi({ description: 'How many keys it held then' }),
      lastError: z
        .string()
        .nullable()
        .openapi({ description: "Why its keys could not be had (the provider's error, bounded, addresses without credentials); null once they are again" }),
      lastErrorAt: z.string().nullable(),
    }),
    refusals: z
      .partialRecord(z.enum(REFUSAL_REASONS), z.object({ count: z.number().int(), lastAt: z.string() }))
      .openapi({ description: 'Subject tokens of this provider refused, by reason, since it was created (written in batches, seconds behind)' }),
  })
  .openapi('IdentityProviderStatus')

export function resourceSchema(kind: Kind) {
  return z
    .object({
      id: z.string().uuid(),
      apiVersion: z.string(),
      kind: z.literal(kind),
      metadata: resourceMetadataSchema,
      spec: kind === 'Secret' ? z.object({ type: z.string(), keys: z.array(z.string()) }) : (KIND_DEFINITIONS[kind].spec as z.ZodType),
      status: (kind === 'Tool' ? toolStatusSchema : kind === 'IdentityProvider' ? identityProviderStatusSchema : z.record(z.string(), z.unknown())).optional(),
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

export const pageSchema = <T extends z.ZodType>(item: T, name: string) => z.object({ items: z.array(item), nextCursor: z.string().nullable() }).openapi(name)

const labelPairs = z
  .array(z.string().regex(/^[^=]+=[^=]*$/, 'must be "key=value"'))
  .max(20)
  .optional()
  .openapi({ description: 'Label filter `key=value`; repeat for several (all must match). `labelSelector` says more.' })

/** A Kubernetes label selector, parsed (lib/labels/label-selector.ts); a syntax error names its position. */
export const labelSelectorParam = z
  .string()
  .max(MAX_SELECTOR_LENGTH)
  .transform((text, ctx) => {
    const parsed = parseLabelSelector(text)
    if (parsed.ok) return parsed.selector
    ctx.addIssue({ code: 'custom', message: `at character ${parsed.position + 1}: ${parsed.message}`, params: { rule: 'label-selector' } })
    return z.NEVER
  })
  .openapi({
    type: 'string',
    description:
      'Kubernetes label selector: comma-separated requirements that must all hold, `key=value` (or `==`), `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key` (has the label), `!key` (has not). `!=` and `notin` also match resources without the key.',
    example: 'team=payments,tier in (gold,silver),!deprecated',
  })

export const listQuery = z.strictObject({
  namespace: z.string().max(63).optional(),
  q: z.string().max(200).optional().openapi({ description: 'Case-insensitive text search in names (and tool descriptions).' }),
  label: labelPairs,
  labelSelector: labelSelectorParam.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  cursor: z.string().max(1000).optional(),
  sort: z.enum(RESOURCE_SORTS).optional().openapi({
    description:
      'Order: `namespace` (then name; the default), `name` (then namespace), `updated` (least recently changed first); a leading `-` reverses each (`-updated`: last changed first). A cursor continues the order it came from.',
  }),
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
    source: z.object({ kind: z.enum(SOURCE_KINDS), name: z.string(), namespace: z.string().nullable() }),
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
    health: z
      .object({
        phase: z.string().openapi({ description: "The Tool's phase (Tool resources), or its MCP server's (server tools)" }),
        problems: z.array(z.object({ type: z.string(), reason: z.string(), message: z.string() })),
      })
      .optional()
      .openapi({ description: 'Whether the tool can be called now: absent for tools that run inside the agent or on the platform' }),
    refusedCalls7d: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Of totalCalls7d, the calls Toolroom refused before the tool ran; they are calls, never failures.' }),
    policies: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Agents only: the Policies (`namespace/name`) whose selector reaches this agent and tool; their rules decide per call' }),
  })
  .openapi('EffectiveTool') satisfies z.ZodType<EffectiveTool>

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
  prune: labelSelectorParam.optional().openapi({
    type: 'string',
    description:
      'A label selector naming the set of resources this manifest owns: those carrying the labels that the manifest does not hold are deleted, in the same transaction (`action: deleted`; a dry run lists them). It must require some label to be there (`key=value`, `key in (…)` or `key`).',
    example: 'app.kubernetes.io/managed-by=payments-gitops',
  }),
})

const manifestMetadata = z.object({
  name: z.string(),
  namespace: z.string().optional().openapi({ description: 'Default `default`.' }),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
})

/** One manifest document, by kind: what Apply and the create/replace routes take. */
export const manifestDocumentSchema = z
  .union([
    ...KINDS.map((kind) =>
      z
        .object({
          apiVersion: z.enum(KIND_DEFINITIONS[kind].apiVersions as unknown as [string, ...string[]]),
          kind: kind === 'LanguageTool' ? z.enum(['LanguageTool', 'MCPServer']) : z.literal(kind),
          metadata: manifestMetadata,
          spec: KIND_DEFINITIONS[kind].spec as z.ZodType,
        })
        .openapi(`${kind}Manifest`),
    ),
    z
      .object({
        apiVersion: z.literal('v1'),
        kind: z.literal('Secret'),
        metadata: manifestMetadata,
        type: z.string().optional().openapi({ description: "`Opaque` (or Toolroom's `opaque`, `bearer`, `basic`)." }),
        stringData: z.record(z.string(), z.string()).optional(),
        data: z.record(z.string(), z.string()).optional().openapi({ description: 'Base64 values.' }),
      })
      .openapi('KubernetesSecretManifest', { description: 'A Kubernetes-style Secret, read as a Toolroom Secret.' }),
  ])
  .openapi('Manifest', {
    description:
      'A manifest document. Fields the server sets are ignored, so a resource as GET answers it applies again: `id`, `status`, `effectiveTools`, `unresolved`, and `metadata.generation`, `createdAt`, `updatedAt`, `uid`, `resourceVersion`, `creationTimestamp`, `managedFields`. Any other unknown field is refused.',
  })

/** Apply's JSON body: one document, an array of documents, a Kubernetes List or a page of a list route. */
export const applyJsonBody = z
  .union([
    manifestDocumentSchema,
    z.array(manifestDocumentSchema).max(2000),
    z
      .object({
        apiVersion: z.string().optional(),
        kind: z.literal('List'),
        metadata: z.record(z.string(), z.unknown()).optional(),
        items: z.array(manifestDocumentSchema).max(2000),
      })
      .openapi('ManifestList'),
  ])
  .openapi('ApplyBody')

export const fieldChangeSchema = z
  .object({
    path: z.string().openapi({
      description: 'Dotted path with array indexes; keys that are not plain names are quoted: `metadata.labels["app.kubernetes.io/name"]`.',
      example: 'spec.safety.allowedAgents[1]',
    }),
    before: z.unknown().optional().openapi({ description: 'Absent when the field is added. Secret values show as `[secret]`.' }),
    after: z.unknown().optional().openapi({ description: 'Absent when the field is removed.' }),
  })
  .openapi('FieldChange')

const impactEntry = z.object({
  state: z.enum(['enabled', 'disabled', 'shadowed', 'denied']),
  requiresApproval: z.boolean(),
  tier: z.enum(TIERS),
  source: z.string().openapi({
    description: 'The provenance, as the effective-tools API names it: `platform`, `connector:<slug>`, `image:<digest>`, `mcp:<server>` or `grant`.',
  }),
})

export const applyImpactSchema = z
  .object({
    agentsChecked: z
      .number()
      .int()
      .openapi({ description: 'Agents before or after the apply; those it cannot reach are known unchanged without being resolved.' }),
    agentsResolved: z.number().int().openapi({ description: 'Of those, the agents the manifest can reach, whose sets were worked out before and after.' }),
    agentsAffected: z.number().int(),
    agents: z.array(
      z.object({
        id: z.string().nullable().openapi({ description: 'Null for an agent the manifest creates.' }),
        namespace: z.string(),
        name: z.string(),
        changes: z.array(
          z.object({
            tool: z.string(),
            change: z.enum(['gained', 'lost', 'changed']),
            before: impactEntry.optional(),
            after: impactEntry.optional(),
            reason: z.string(),
          }),
        ),
      }),
    ),
    truncated: z.boolean().openapi({ description: 'Whether `agents` was cut (at 20,000 tool changes in all) short of `agentsAffected`.' }),
  })
  .openapi('ApplyImpact', {
    description: 'Every agent whose effective tool set would change, tool by tool, worked out by the resolver over the would-be registry.',
  })

export const applyWarningSchema = z
  .object({
    index: z.number().int().openapi({ description: "The document's index in the manifest." }),
    kind: z.string(),
    namespace: z.string(),
    name: z.string(),
    field: z.string().openapi({ example: 'spec.endpoint.url' }),
    reason: z.string().openapi({ description: 'The reason of the condition the resource would get.', example: 'HostNotResolved' }),
    message: z.string(),
  })
  .openapi('ApplyWarning')

const applyAction = z.enum(['created', 'updated', 'unchanged', 'deleted'])

export const applyResultSchema = z
  .object({
    dryRun: z.boolean(),
    results: z.array(
      z.object({
        index: z.number().int().nullable().openapi({ description: "The document's index in the manifest; null for a resource prune deletes." }),
        kind: z.string(),
        apiVersion: z.string(),
        namespace: z.string(),
        name: z.string(),
        id: z.string().nullable(),
        action: applyAction,
        changes: z
          .array(fieldChangeSchema)
          .openapi({ description: 'What is (or would be) changed, field by field: for `updated`; empty for the other actions.' }),
      }),
    ),
    summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), deleted: z.number().int() }),
    impact: applyImpactSchema.optional().openapi({ description: 'Dry runs only.' }),
    policyReach: z
      .array(
        z.object({
          namespace: z.string(),
          name: z.string(),
          agents: z.array(z.object({ namespace: z.string(), name: z.string(), tools: z.array(z.string()) })),
          truncated: z.boolean(),
        }),
      )
      .optional()
      .openapi({
        description: 'Dry runs with Policies only: the agents each Policy would reach, with the tools of theirs it selects (docs/design/policy.md#reach).',
      }),
    warnings: z.array(applyWarningSchema).optional().openapi({
      description:
        'Dry runs only: documents that are valid but would not work once written (a host that does not resolve or the outbound policy refuses, a Secret or MCP server that does not exist), found as their status will be. Warnings do not refuse the apply.',
    }),
  })
  .openapi('ApplyResult')

export const imageToolDefinition = z.object({ name: z.string(), description: z.string(), inputSchema: z.unknown() })

export const imageToolsUpload = z
  .object({
    digest: z
      .string()
      .regex(/^sha256:[a-f0-9]{64}$/, 'must be "sha256:" and 64 hex digits')
      .optional(),
    tools: z.array(z.unknown()).max(2000),
  })
  .openapi('ImageToolsUpload', { description: "A tools manifest (the `GET /a2a/tools` array) for the subject's image." })

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
    counts: z.object({
      tools: z.number().int(),
      languageTools: z.number().int(),
      connectors: z.number().int(),
      units: z.number().int(),
      agents: z.number().int(),
      secrets: z.number().int(),
    }),
    toolsByLevel: z.array(z.object({ level: z.string(), count: z.number().int() })),
    toolsByType: z.array(z.object({ type: z.string(), count: z.number().int() })),
    namespaces: z.array(z.string()),
    languageToolsByPhase: z.array(z.object({ phase: z.string(), count: z.number().int() })),
    firstRun: z
      .object({
        serverReady: z.boolean().openapi({ description: 'an MCP server (LanguageTool) was discovered: phase Ready' }),
        toolApplied: z.boolean().openapi({ description: 'a Tool resource exists' }),
        agentCredential: z.boolean().openapi({ description: 'an agent holds a credential that is neither revoked nor expired' }),
        callMade: z.boolean().openapi({ description: 'a tool call was recorded' }),
        callCounted: z.boolean().openapi({ description: "the statistics (this dashboard's figures) count a call" }),
      })
      .openapi({ description: 'What the first-run checklist shows as done, read from the registry and the call log' }),
  })
  .openapi('Overview')

/** The person a call or approval request was made for (docs/design/access.md#on-whose-behalf). */
export const onBehalfOfSchema = z
  .object({
    issuer: z.string().openapi({ description: "Who vouches for the person: a trusted IdentityProvider's issuer, or Toolroom's own `<origin>/api/auth`" }),
    subject: z.string().openapi({ description: 'Who they are at that issuer' }),
    displayName: z.string(),
  })
  .nullable()
  .openapi('OnBehalfOf', { description: 'The person the agent acted for; null when it acted on its own' })
