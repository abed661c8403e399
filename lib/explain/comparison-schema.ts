// The answer of "two subjects side by side" (GET /api/v1/agents/{id}/compare): the types the code
// uses and the OpenAPI document are both inferred from these.
import { z } from '@/lib/http/zod'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { TIERS } from '@/lib/effective-tools/types'
import { fixDraftSchema } from './explanation-schema'

const subjectSchema = z.object({ kind: z.enum(['Agent', 'Unit']), id: z.string(), namespace: z.string(), name: z.string() })

const entrySchema = z.object({
  provenance: z
    .string()
    .openapi({ description: 'Where the tool comes from, as the effective-tools API names it (`grant`, `connector:zendesk`, `mcp:github`, …).' }),
  tier: z.enum(TIERS),
  inheritedFromUnit: z.string().nullable(),
  level: z.enum(SIDE_EFFECT_LEVELS),
  requiresApproval: z.boolean(),
})

const oneSidedSchema = z.object({
  tool: z.string(),
  has: entrySchema.openapi({ description: 'The entry that lets the side that has the tool call it.' }),
  lacks: z.object({
    state: z
      .enum(['absent', 'disabled', 'denied', 'shadowed'])
      .openapi({ description: 'What the other side holds of the name: `absent` when no source offers it there.' }),
    reason: z.string().openapi({ description: "Why the other side cannot call it: for an agent, the explainer's summary (POST /api/v1/agents/{id}/explain)." }),
    fixes: z.array(fixDraftSchema).openapi({ description: 'The manifest changes that would let the other side call it, ready for Apply.' }),
  }),
})

export const comparisonQuery = z.strictObject({
  namespace: z.string().max(63).optional(),
  with: z.string().min(1).max(253).openapi({ description: 'The other side: an agent, or a unit with `withKind=Unit`, by id or name.' }),
  withKind: z.enum(['Agent', 'Unit']).default('Agent'),
  withNamespace: z.string().max(63).optional(),
})

export const comparisonSchema = z
  .object({
    left: subjectSchema,
    right: subjectSchema,
    onlyLeft: z.array(oneSidedSchema).openapi({ description: 'Tools the left side can call and the right side cannot, with why not and the fix.' }),
    onlyRight: z.array(oneSidedSchema).openapi({ description: 'Tools the right side can call and the left side cannot, with why not and the fix.' }),
    differing: z
      .array(z.object({ tool: z.string(), left: entrySchema, right: entrySchema }))
      .openapi({ description: 'Tools both can call, from another source or under another approval rule.' }),
    same: z.number().int().openapi({ description: 'How many tools both can call the same way.' }),
  })
  .openapi('EffectiveToolsComparison')

export type Comparison = z.infer<typeof comparisonSchema>
export type ComparisonQuery = z.output<typeof comparisonQuery>
