import { z } from '@/lib/http/zod'
import { canonicalToolId, evenWithFieldErrors, resourceRef } from './common'

// A connector's slug (its metadata.name) is a reserved tool namespace: it contributes the tools of an
// MCP server (ids `<slug>.<tool>`) and/or a set of Tool resources under `<slug>.*`.
export const connectorSpec = z
  .strictObject({
    displayName: z.string().max(200).optional(),
    description: z.string().max(4000).optional(),
    languageTool: resourceRef.optional(),
    tools: z.array(canonicalToolId).max(1000).optional(),
  })
  .superRefine((spec, ctx) => {
    if (!spec.languageTool && !(Array.isArray(spec.tools) && spec.tools.length))
      ctx.addIssue({
        code: 'custom',
        path: ['tools'],
        message: 'a connector needs spec.languageTool or at least one of spec.tools',
        params: { rule: 'required' },
      })
  }, evenWithFieldErrors)

export type ConnectorSpec = z.infer<typeof connectorSpec>
