// The explainer's request and answer (POST /api/v1/agents/{id}/explain), and the answer of "Agents
// with this tool" (GET /api/v1/tools/{id}/agents): the types the code uses and the OpenAPI document
// are both inferred from these.
import { z } from '@/lib/http/zod'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { TIERS } from '@/lib/effective-tools/types'

export const DECISIONS = ['allowed', 'approval_required', 'denied', 'unknown_tool', 'invalid_arguments', 'rate_limited'] as const
export const STEPS = ['effective-set', 'executor', 'arguments', 'policies', 'rate-limits', 'idempotency', 'approval'] as const
/** `held`: the call would wait for a person's approval. */
export const STEP_OUTCOMES = ['passed', 'refused', 'held', 'not-reached', 'skipped'] as const
const STATES = ['enabled', 'disabled', 'shadowed', 'denied'] as const
const APPROVAL_SOURCES = ['tool', 'policy', 'default'] as const

export const explainRequestSchema = z
  .strictObject({
    tool: z.string().min(1).max(256).openapi({ description: 'The tool name, as the agent would call it (toolroom.call_tool included).' }),
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .openapi({ description: "The arguments the call would send; checked against the tool's inputSchema." }),
    idempotencyKey: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .openapi({ description: "A key the caller would send; without one, the tool's idempotencyKeyTemplate renders it." }),
    person: z
      .strictObject({
        issuer: z.string().min(1).max(2048),
        subject: z.string().min(1).max(255),
        displayName: z.string().min(1).max(200).optional(),
      })
      .optional()
      .openapi({
        description: 'The person the agent would act for (token exchange or consent); shown in the identity chain. Without it, the agent acts on its own.',
      }),
  })
  .openapi('ExplainRequest')

const sourceSchema = z.object({ kind: z.string(), name: z.string(), namespace: z.string().nullable() })

export const fixDraftSchema = z
  .object({
    action: z.enum(['toggle', 'allowedAgents', 'deniedNamespaces', 'grant', 'connector']),
    summary: z.string(),
    target: z.object({ kind: z.string(), namespace: z.string(), name: z.string() }),
    yaml: z.string().openapi({ description: 'The whole manifest of the target with the change, to review and apply (`/apply?draft=<url-encoded YAML>`).' }),
  })
  .openapi('FixDraft')

export const explanationSchema = z
  .object({
    agent: z.object({ id: z.string(), namespace: z.string(), name: z.string(), unit: z.string().nullable() }),
    tool: z.string(),
    through: z
      .object({ door: z.string(), tool: z.string() })
      .nullable()
      .openapi({ description: 'Set when the call goes through toolroom.call_tool: the tool whose pipeline runs.' }),
    decision: z.enum(DECISIONS),
    summary: z.string(),
    identity: z
      .object({
        onBehalfOf: z.object({ issuer: z.string(), subject: z.string(), displayName: z.string() }).nullable(),
        chain: z.string().openapi({ description: 'person → agent → tool → upstream credential, as one line' }),
      })
      .openapi({ description: 'On whose behalf the call would be made, and with whose credentials the upstream would see it.' }),
    refusal: z
      .object({ step: z.enum(STEPS), errorCode: z.string(), message: z.string(), rpcCode: z.number().int() })
      .nullable()
      .openapi({
        description:
          "What the gateway would answer instead of running the tool (its JSON-RPC code and the call record's errorCode); null when it would run it or hold it for approval.",
      }),
    steps: z
      .array(z.object({ step: z.enum(STEPS), outcome: z.enum(STEP_OUTCOMES), detail: z.string() }))
      .openapi({ description: "The gateway's pipeline in its order; steps after the deciding one are `not-reached` and say what they would have said." }),
    candidates: z
      .array(
        z.object({
          role: z.enum(['winner', 'shadowed', 'reserved']),
          why: z.string(),
          provenance: z.string(),
          tier: z.enum(TIERS),
          source: sourceSchema,
          inheritedFromUnit: z.string().nullable(),
          state: z.enum(STATES),
          reason: z.string().nullable(),
          level: z.enum(SIDE_EFFECT_LEVELS),
          requiresApproval: z.boolean(),
          approvalSource: z.enum(APPROVAL_SOURCES),
        }),
      )
      .openapi({
        description: 'Every source offering the name: the winner first, then those it shadowed, then those under a namespace reserved for another source.',
      }),
    safety: z
      .object({
        allowedAgents: z.array(z.string()).nullable(),
        deniedNamespaces: z.array(z.string()).nullable(),
        toggle: z.object({ enabled: z.boolean(), where: z.string() }).nullable(),
      })
      .nullable(),
    executor: z.object({ kind: z.string(), reason: z.string().nullable() }).nullable(),
    arguments: z.object({ checked: z.boolean(), violations: z.array(z.object({ path: z.string(), rule: z.string(), message: z.string() })) }),
    policies: z
      .array(
        z.object({
          policy: z.string().openapi({ description: '`namespace/name` of the Policy' }),
          rule: z.number().int(),
          effect: z.enum(['deny', 'require_approval', 'limit', 'redact']),
          when: z.string(),
          reason: z.string(),
          outcome: z.enum(['matched', 'not_matched', 'error']),
          values: z.record(z.string(), z.unknown()).openapi({ description: 'The argument values the condition read, by path (`args.amount`)' }),
          error: z.string().optional(),
        }),
      )
      .openapi({ description: 'Every rule of every Policy that reaches the call (docs/design/policy.md), whether it matched, and the values it compared.' }),
    rateLimits: z.object({
      windows: z.array(
        z.object({
          appliesTo: z.enum(['tool', 'agent', 'policy']),
          window: z.enum(['minute', 'day']),
          limit: z.number().int(),
          used: z.number().int(),
          remaining: z.number().int(),
          resetsInSeconds: z.number().int(),
        }),
      ),
    }),
    idempotency: z.object({
      key: z.string().nullable(),
      source: z.enum(['caller', 'template', 'none']),
      template: z.string().nullable(),
      scope: z.enum(['agent', 'tool']).nullable(),
      problem: z.string().nullable().openapi({ description: 'Why the gateway would refuse the key (length, unstorable text).' }),
      withheld: z.string().nullable().openapi({ description: 'Why heldBy is not shown: a key carrying a redacted argument is not confirmed either way.' }),
      heldBy: z
        .object({ callId: z.string(), state: z.enum(['running', 'done']), outcome: z.string().nullable(), expiresAt: z.string() })
        .nullable()
        .openapi({ description: "The call the key is held by: a call now gets that call's answer instead of running." }),
    }),
    approval: z
      .object({
        required: z.boolean(),
        source: z.enum(APPROVAL_SOURCES),
        level: z.string(),
        expirySeconds: z.number().int(),
        expirySource: z.enum(APPROVAL_SOURCES),
      })
      .nullable(),
    fixes: z.array(fixDraftSchema).openapi({ description: 'For a denied or unknown tool: the manifest changes that would let the agent call it.' }),
    checkedAt: z.string(),
  })
  .openapi('Explanation')

export const agentsWithToolQuery = z.strictObject({
  namespace: z.string().max(63).optional(),
  state: z.enum(STATES).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().max(1000).optional(),
})

export const agentsWithToolSchema = z
  .object({
    items: z.array(
      z.object({
        agent: z.object({ id: z.string(), namespace: z.string(), name: z.string(), unit: z.string().nullable() }),
        state: z.enum(STATES),
        reason: z.string().nullable(),
        provenance: z.string(),
        tier: z.enum(TIERS),
        inheritedFromUnit: z.string().nullable(),
        shadowedBy: z.string().nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
    counts: z
      .object({ enabled: z.number().int(), disabled: z.number().int(), denied: z.number().int(), shadowed: z.number().int() })
      .openapi({ description: 'Over every agent with the Tool, whatever the state filter and page.' }),
  })
  .openapi('AgentsWithTool')

export type Explanation = z.infer<typeof explanationSchema>
export type Decision = Explanation['decision']
export type StepName = (typeof STEPS)[number]
export type Step = Explanation['steps'][number]
export type ExplainRequest = z.output<typeof explainRequestSchema>
export type AgentsWithToolPage = z.infer<typeof agentsWithToolSchema>
export type AgentWithTool = AgentsWithToolPage['items'][number]
