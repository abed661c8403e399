// A Policy's test cases and their verdicts (POST /api/v1/policy-tests, `toolroom policy test`;
// docs/design/policy.md#testing): the types the code uses and the OpenAPI document are inferred from these.
import { z } from '@/lib/http/zod'
import { dnsLabel } from './common'
import { policySpec } from './policy'
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/side-effect-levels'

/**
 * What a case's call comes to under the Policy, strongest first: `error` (a rule could not be
 * evaluated: the gateway refuses the call, failing closed), `deny`, `require_approval`, `limit`,
 * `redact`, and `allow` (no rule matched, or the Policy does not reach the call).
 */
export const POLICY_TEST_EFFECTS = ['error', 'deny', 'require_approval', 'limit', 'redact', 'allow'] as const
export type PolicyTestEffect = (typeof POLICY_TEST_EFFECTS)[number]

export const MAX_POLICY_TEST_CASES = 500

const labels = z.record(z.string().max(317), z.string().max(63))

const policyTestCase = z.strictObject({
  name: z.string().min(1).max(200).optional().openapi({ description: 'What the case checks, for the report.' }),
  tool: z
    .union([
      z.string().min(1).max(256),
      z.strictObject({
        id: z.string().min(1).max(256),
        level: z.enum(SIDE_EFFECT_LEVELS).optional(),
        labels: labels.optional(),
        source: z
          .strictObject({ kind: z.string().min(1).max(40), namespace: z.string().max(63).nullable().optional(), name: z.string().min(1).max(253) })
          .optional(),
      }),
    ])
    .openapi({
      description: "The tool id called, or `{id, level, labels, source}` (defaults: level read_only, no labels, a Tool of that name in the agent's namespace).",
    }),
  agent: z
    .strictObject({
      namespace: dnsLabel('a namespace').optional(),
      name: z.string().min(1).max(253).optional(),
      labels: labels.optional(),
      units: z.array(z.string().min(1).max(253)).max(50).optional(),
    })
    .default({})
    .openapi({ description: "The calling agent; namespace defaults to the Policy's own, name to `test-agent`." }),
  args: z.record(z.string(), z.unknown()).default({}).openapi({ description: 'The arguments the agent sends.' }),
  person: z
    .strictObject({
      id: z.string().min(1).max(255),
      issuer: z.string().min(1).max(2048),
      displayName: z.string().min(1).max(200).optional(),
      email: z.string().max(320).nullable().optional(),
      groups: z.array(z.string().max(256)).max(200).optional(),
      claims: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable()
    .default(null)
    .openapi({ description: 'The person the call is made for; null (the default) when the agent acts on its own.' }),
  now: z.iso.datetime({ offset: true }).optional().openapi({ description: 'The time of the call (RFC 3339); default the time of the request.' }),
  expect: z.enum(POLICY_TEST_EFFECTS).openapi({ description: 'The effect the case expects.' }),
})

export type PolicyTestCase = z.infer<typeof policyTestCase>

export const policyTestRequestSchema = z
  .strictObject({
    policy: z
      .strictObject({
        namespace: dnsLabel('a namespace').default('default'),
        name: dnsLabel('a name'),
        spec: policySpec.optional().openapi({
          description: 'The Policy to test, as in its manifest (checked as Apply checks it). Without it, the applied Policy of that name is tested.',
        }),
      })
      .openapi({ description: 'The Policy: an applied one by namespace and name, or one given whole with `spec`.' }),
    cases: z.array(policyTestCase).min(1).max(MAX_POLICY_TEST_CASES),
  })
  .openapi('PolicyTestRequest')

export type PolicyTestRequest = z.infer<typeof policyTestRequestSchema>

const ruleTrace = z.object({
  rule: z.number().int(),
  effect: z.string(),
  reason: z.string(),
  outcome: z.enum(['matched', 'not_matched', 'error']),
  values: z.record(z.string(), z.unknown()).openapi({ description: 'The argument values the condition read.' }),
  error: z.string().optional(),
})

export const policyTestResultSchema = z
  .object({
    policy: z.object({ namespace: z.string(), name: z.string(), source: z.enum(['applied', 'request']) }),
    passed: z.number().int(),
    failed: z.number().int(),
    cases: z.array(
      z.object({
        index: z.number().int(),
        name: z.string().nullable(),
        expect: z.enum(POLICY_TEST_EFFECTS),
        effect: z.enum(POLICY_TEST_EFFECTS),
        pass: z.boolean(),
        reached: z
          .boolean()
          .openapi({ description: "Whether the Policy's selector takes in the case's agent and tool (if not, nothing is evaluated and the effect is allow)." }),
        message: z.string().nullable().openapi({ description: 'What the gateway would tell the agent: the refusal, or the approvals it waits for.' }),
        rules: z.array(ruleTrace),
      }),
    ),
  })
  .openapi('PolicyTestResult')

export type PolicyTestResult = z.infer<typeof policyTestResultSchema>
