import { z } from '@/lib/http/zod'
import { conditionProblems, MAX_CONDITION_LENGTH } from '@/lib/policy/policy-condition'
import { dnsLabel, evenWithFieldErrors } from './common'

// A Policy layers rules on the arguments, the agent and the person over a Tool's own safety
// (docs/design/policy.md): it can only tighten, never loosen.

/** A tool id, or a glob of one where `*` stands for any run of characters (`payments.*`, `*.delete_*`). */
const toolGlob = z
  .string()
  .max(128)
  .regex(/^[a-z*][a-z0-9_.*]*$/, 'must be a tool id or a glob of one: lowercase letters, digits, "_", "." and "*" (any run of characters)')

const labelValue = z.string().max(63)

export const POLICY_EFFECTS = ['deny', 'require_approval', 'limit', 'redact'] as const
export type PolicyEffect = (typeof POLICY_EFFECTS)[number]

const policyRule = z
  .strictObject({
    /** A CEL expression over args, agent, tool, person and now; the rule applies when it is true. */
    when: z
      .string()
      .min(1, 'is required')
      .max(MAX_CONDITION_LENGTH)
      .superRefine((when, ctx) => {
        for (const problem of conditionProblems(when)) ctx.addIssue({ code: 'custom', message: problem.message, params: { rule: problem.rule } })
      }),
    effect: z.enum(POLICY_EFFECTS),
    /** Shown to the agent in a refusal and to approvers in the queue. */
    reason: z.string().min(1, 'is required').max(500),
    /** For `effect: limit`: calls per agent within the window, counted only for calls the rule matches. */
    limit: z
      .strictObject({
        perMinute: z.number().int().min(0).max(1_000_000).optional(),
        perDay: z.number().int().min(0).max(100_000_000).optional(),
      })
      .refine((l) => l.perMinute !== undefined || l.perDay !== undefined, 'needs perMinute or perDay')
      .optional(),
    /** For `effect: redact`: what the call log and the approval queue mask, as `observability.redactFields` paths. */
    redact: z
      .strictObject({
        fields: z
          .array(z.string().regex(/^(args|result)(\.[A-Za-z0-9_-]+|\[\*\])+$/, 'must be a path like "args.body" or "result.token"'))
          .min(1)
          .max(200),
      })
      .optional(),
  })
  .superRefine((rule, ctx) => {
    const need = (field: 'limit' | 'redact', effect: PolicyEffect) => {
      if (rule.effect === effect && rule[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `is required when effect is "${effect}"`, params: { rule: 'required' } })
      if (rule.effect !== effect && rule[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `is only allowed when effect is "${effect}"`, params: { rule: 'not-allowed' } })
    }
    need('limit', 'limit')
    need('redact', 'redact')
  }, evenWithFieldErrors)

export const policySpec = z.strictObject({
  description: z.string().max(4000).optional(),
  selector: z.strictObject({
    tools: z.array(toolGlob).min(1).max(200),
    agents: z
      .strictObject({
        matchLabels: z.record(z.string().max(317), labelValue).optional(),
        /**
         * Namespaces beyond the Policy's own whose agents it reaches. Like `safety.allowedAgents`, a
         * Policy reaches only its own namespace unless another is named (docs/design/policy.md#reach).
         */
        namespaces: z.array(dnsLabel('a namespace')).max(100).optional(),
      })
      .optional(),
  }),
  rules: z.array(policyRule).min(1).max(50),
})

export type PolicySpec = z.infer<typeof policySpec>
export type PolicyRule = PolicySpec['rules'][number]
