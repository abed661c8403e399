import { z } from '@/lib/http/zod'
import { checkToolJsonSchema } from '@/lib/manifests/json-schema'
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '@/lib/manifests/side-effect-levels'
import { CANONICAL_TOOL_ID, MAX_TOOL_ID_LENGTH } from '@/lib/tools/naming'

/** Kubernetes DNS-1123 label: names of namespaces, agents, units, servers, secrets. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/

export const dnsLabel = (what: string) =>
  z
    .string()
    .max(63, `${what} must be at most 63 characters`)
    .regex(DNS_LABEL, `${what} must be a DNS label: lowercase letters, digits and '-', starting and ending alphanumeric`)

export const canonicalToolId = z
  .string()
  .max(MAX_TOOL_ID_LENGTH, `tool ids are at most ${MAX_TOOL_ID_LENGTH} characters`)
  .regex(CANONICAL_TOOL_ID, 'must be a canonical tool id: lowercase dotted snake_case like "acme.create_ticket" (^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$)')

/** A reference to another resource: `name` (same namespace) or `namespace/name`. */
export const resourceRef = z
  .string()
  .max(127)
  .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?\/)?[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/, 'must be "name" or "namespace/name"')

export { SIDE_EFFECT_LEVELS, type SideEffectLevel }
export const sideEffectLevel = z.enum(SIDE_EFFECT_LEVELS)

/** Container image reference, optionally pinned by digest (`repo:tag@sha256:<64 hex>`). */
export const imageReference = z
  .string()
  .max(512)
  .regex(
    /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?::[0-9]+)?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/,
    'must be an image reference like "registry/repo:tag" or "registry/repo@sha256:<64 hex digits>"',
  )

// Every URL a manifest holds is shown in GET answers, the portal and the audit log: a user name or
// password in it would be a credential in plain text. Credentials come from Secrets (`auth`, `authHeaders`).
export const httpUrl = z
  .string()
  .max(2048)
  .url('must be an absolute URL')
  .refine((u) => /^https?:\/\//i.test(u), 'must use http or https')
  .refine((u) => !URL.canParse(u) || (new URL(u).username === '' && new URL(u).password === ''), {
    message: 'must not carry a user name or password: credentials come from a Secret (auth.secretRef or authHeaders)',
    params: { rule: 'no-credentials' },
  })

const jsonSchemaObject = z.record(z.string(), z.unknown())

/**
 * Rules across a spec's fields run even when one of its fields is invalid (zod skips refinements
 * after an issue by default), so a document's problems all come in one answer rather than one round
 * at a time. Rules given this must read their fields defensively: any of them may be the wrong type.
 */
export const evenWithFieldErrors = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A JSON Schema document; checked with Ajv so an invalid schema is refused at registration. */
export const toolJsonSchema = (requireObjectRoot: boolean) =>
  jsonSchemaObject.superRefine((schema, ctx) => {
    for (const message of checkToolJsonSchema(schema, { requireObjectRoot })) {
      ctx.addIssue({ code: 'custom', message: `invalid JSON Schema: ${message}`, params: { rule: 'json-schema' } })
    }
  })

export const rateLimit = z.strictObject({
  callsPerMinute: z.number().int().min(0).max(1_000_000).optional(),
  callsPerDay: z.number().int().min(0).max(100_000_000).optional(),
})

export const toggles = z.record(canonicalToolId, z.boolean())

/** From a minute to thirty days: shorter would expire before anyone looks; longer is a forgotten call. */
export const approvalExpirySeconds = z
  .number()
  .int()
  .min(60)
  .max(30 * 86400)

/**
 * The arguments an approver sees in every row of the queue, as paths into the call's arguments
 * (`args.amount`, `args.customer.id`), in the order shown. Values are shown as the call log keeps
 * them, so `observability.redactFields` still masks what it names.
 */
export const approvalSummary = z
  .array(
    z
      .string()
      .max(200)
      .regex(/^args(\.[A-Za-z0-9_-]+){1,8}$/, 'must be a path into the arguments like "args.amount" or "args.customer.id"'),
  )
  .min(1)
  .max(8)
