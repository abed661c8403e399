// The schema of every error answer (RFC 9457 problem details with Toolroom's per-field errors): in
// the OpenAPI document, and what the response check holds error answers to.
import { z } from './zod'

export const fieldErrorSchema = z
  .object({
    document: z.number().int().optional().openapi({ description: 'The index of the document in a multi-document manifest; absent for single requests' }),
    kind: z.string().optional(),
    name: z.string().optional(),
    field: z.string().openapi({ description: 'The dotted path of the field, e.g. `spec.inputSchema.properties.priority`' }),
    rule: z.string().openapi({ description: 'A short machine-readable rule id: `canonical-id`, `reserved-namespace`, `json-schema`, …' }),
    message: z.string(),
    line: z.number().int().optional().openapi({ description: "Apply: the problem's line in the manifest's text (1-based)" }),
    column: z.number().int().optional().openapi({ description: "Apply: the problem's column in that line (1-based, in UTF-16 code units)" }),
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
