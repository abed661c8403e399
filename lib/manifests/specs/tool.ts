import { z } from '@/lib/http/zod'
import { ALLOWED_AGENT_FORMS, ALLOWED_AGENT_PATTERN } from '@/lib/effective-tools/allowed-agents'
import { urlTemplateProblems } from '@/lib/net/url-template'
import { MAX_DESCRIPTION_LENGTH, MAX_UPSTREAM_TOOL_NAME_LENGTH } from '@/lib/manifests/tool-definition-limits'
import {
  approvalExpirySeconds,
  approvalSummary,
  evenWithFieldErrors,
  httpUrl,
  isPlainObject,
  rateLimit,
  resourceRef,
  sideEffectLevel,
  toolJsonSchema,
} from './common'
import { oauth2Client } from './upstream-auth'
import { approvalSpecProblems, MAX_TEMPLATE_CHARS } from '@/lib/approvals/approval-template'
import { FIELD_UNITS } from '@/lib/approvals/format-units'

// The joch.dev `Tool` spec in full (seeds/001), plus `command` for `os` tools, which joch leaves to
// the runtime: a declared argument vector, never a shell line.
const toolEndpoint = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url: httpUrl.superRefine((url, ctx) => {
    for (const message of urlTemplateProblems(url)) ctx.addIssue({ code: 'custom', message, params: { rule: 'url-template' } })
  }),
  auth: z
    .strictObject({
      type: z.enum(['none', 'bearer', 'basic', 'header', 'oauth2']),
      secretRef: z.strictObject({ name: resourceRef, key: z.string().max(253).optional() }).optional(),
      /** Header name for `type: header`. */
      header: z
        .string()
        .max(256)
        .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
        .optional(),
      /** The OAuth client for `type: oauth2`: the token it gets is sent as a bearer token. */
      oauth2: oauth2Client.optional(),
    })
    .superRefine((auth, ctx) => {
      if (auth.type === 'oauth2') {
        if (auth.oauth2 === undefined)
          ctx.addIssue({ code: 'custom', path: ['oauth2'], message: 'is required when type is "oauth2"', params: { rule: 'required' } })
        for (const field of ['secretRef', 'header'] as const)
          if (auth[field] !== undefined)
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: 'is not allowed when type is "oauth2" (the client secret is oauth2.clientSecretRef)',
              params: { rule: 'not-allowed' },
            })
      } else if (auth.oauth2 !== undefined)
        ctx.addIssue({ code: 'custom', path: ['oauth2'], message: 'is only allowed when type is "oauth2"', params: { rule: 'not-allowed' } })
    }, evenWithFieldErrors)
    .optional(),
  timeoutMs: z.number().int().min(1).max(300_000).optional(),
})

const argumentField = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){0,7}$/, 'must be an argument name or path like "amount" or "customer.id"')

/**
 * Toolroom's extension: how this tool's calls read to an approver (docs/design/approvals.md#summaries).
 * Checked against `inputSchema` at apply: a template or field naming an argument the tool lacks is an error.
 */
const approvalReading = z.strictObject({
  /** A one-line Liquid template over the arguments: `Refund {{ amount | money: currency }} on {{ charge }}`. */
  summary: z.string().min(1).max(MAX_TEMPLATE_CHARS).optional(),
  fields: z
    .record(
      argumentField,
      z.strictObject({
        label: z.string().min(1).max(60).optional(),
        unit: z.enum(FIELD_UNITS).optional(),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code like "EUR"')
          .optional(),
        currencyField: argumentField.optional(),
        link: z.string().max(MAX_TEMPLATE_CHARS).optional(),
        absent: z.string().min(1).max(120).optional(),
      }),
    )
    .refine((fields) => Object.keys(fields).length <= 32, 'at most 32 fields')
    .optional(),
})

export const toolSpec = z
  .strictObject({
    type: z.enum(['function', 'rest', 'mcp', 'os']),
    description: z.string().min(1, 'is required').max(MAX_DESCRIPTION_LENGTH),
    endpoint: toolEndpoint.optional(),
    mcpServerRef: z
      .strictObject({
        name: resourceRef,
        /** Upstream tool name on the server when it differs from the last segment of the id. */
        tool: z.string().min(1).max(MAX_UPSTREAM_TOOL_NAME_LENGTH).optional(),
      })
      .optional(),
    command: z
      .strictObject({
        argv: z.array(z.string().max(4096)).min(1).max(256),
        timeoutSeconds: z.number().int().min(1).max(3600).optional(),
        maxOutputBytes: z
          .number()
          .int()
          .min(1)
          .max(16 * 1024 * 1024)
          .optional(),
      })
      .optional(),
    inputSchema: toolJsonSchema(true),
    outputSchema: toolJsonSchema(false).optional(),
    sideEffects: z
      .strictObject({
        level: sideEffectLevel.optional(),
        idempotent: z.boolean().optional(),
        requiresApproval: z.boolean().optional(),
        idempotencyKeyTemplate: z.string().min(1).max(512).optional(),
        /** Toolroom's extension: how long a call waits for approval before it expires (overrides the level's policy). */
        approvalExpirySeconds: approvalExpirySeconds.optional(),
        /** Toolroom's extension: the arguments the approval queue shows for this tool's calls (overrides the level's policy). */
        approvalSummary: approvalSummary.optional(),
      })
      .optional(),
    approval: approvalReading.optional(),
    safety: z
      .strictObject({
        allowedAgents: z.array(z.string().max(127).regex(ALLOWED_AGENT_PATTERN, ALLOWED_AGENT_FORMS)).max(1000).optional(),
        deniedNamespaces: z.array(z.string().max(63)).max(1000).optional(),
        rateLimit: rateLimit.optional(),
      })
      .optional(),
    observability: z
      .strictObject({
        logArgs: z.boolean().optional(),
        logResult: z.boolean().optional(),
        redactFields: z
          .array(z.string().regex(/^(args|result)(\.[A-Za-z0-9_-]+|\[\*\])+$/, 'must be a path like "args.body" or "result.token"'))
          .max(200)
          .optional(),
      })
      .optional(),
  })
  .superRefine((spec, ctx) => {
    const need = (field: keyof typeof spec, when: string) => {
      if (spec[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is required when ${when}`, params: { rule: 'required' } })
    }
    const forbid = (field: keyof typeof spec, unless: string) => {
      if (spec[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is only allowed when ${unless}`, params: { rule: 'not-allowed' } })
    }
    if (spec.type === 'rest') need('endpoint', 'type is "rest"')
    else forbid('endpoint', 'type is "rest"')
    if (spec.type === 'mcp') need('mcpServerRef', 'type is "mcp"')
    else forbid('mcpServerRef', 'type is "mcp"')
    if (spec.type === 'os') need('command', 'type is "os"')
    else forbid('command', 'type is "os"')
    if (isPlainObject(spec.approval) && isPlainObject(spec.inputSchema))
      for (const problem of approvalSpecProblems(spec.approval, spec.inputSchema))
        ctx.addIssue({ code: 'custom', path: ['approval', ...problem.path], message: problem.message, params: { rule: problem.rule } })
  }, evenWithFieldErrors)

export type ToolSpec = z.infer<typeof toolSpec>
