import { z } from '@/lib/http/zod'
import { evenWithFieldErrors, httpUrl, imageReference, resourceRef } from './common'
import { mcpServerOAuth2 } from './upstream-auth'

// The langop.io `LanguageTool` (seeds/000): an MCP tool server Toolroom discovers and forwards to.
export const languageToolSpec = z
  .strictObject({
    image: imageReference.optional(),
    port: z.number().int().min(1).max(65535).default(8080),
    deploymentMode: z.enum(['service', 'sidecar']).default('service'),
    /** Explicit URL of the server; otherwise the in-cluster service address. */
    endpoint: httpUrl.optional(),
    transport: z.enum(['streamable-http', 'sse']).default('streamable-http'),
    description: z.string().max(4000).optional(),
    /** Hold changed definitions of tools agents already have for operator review before agents see them. */
    pinning: z.boolean().optional(),
    /**
     * Hand agents the server's own endpoint in their config.yaml, beside the gateway. Calls made there
     * bypass Toolroom: no approvals, rate limits, argument checks or call log. Off unless set.
     */
    directAccess: z.boolean().optional(),
    /** Headers sent with every request to the server, their values taken from secrets. */
    authHeaders: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name'),
          secretRef: z.strictObject({ name: resourceRef, key: z.string().max(253).optional() }),
        }),
      )
      .max(20)
      .optional(),
    /**
     * OAuth 2.1: discovery and every call send the access token of the client credentials grant, or
     * (`authorization_code`) of the connection an operator made from the LanguageTool's page.
     */
    auth: z.strictObject({ type: z.enum(['oauth2']), oauth2: mcpServerOAuth2 }).optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.auth)
      (spec.authHeaders ?? []).forEach((h, i) => {
        if (h.name.toLowerCase() === 'authorization')
          ctx.addIssue({
            code: 'custom',
            path: ['authHeaders', i, 'name'],
            message: 'must not be Authorization when spec.auth is set (the OAuth token is sent there)',
            params: { rule: 'not-allowed' },
          })
      })
    if (!spec.image && !spec.endpoint)
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'is required unless spec.endpoint is set', params: { rule: 'required' } })
  }, evenWithFieldErrors)

export type LanguageToolSpec = z.infer<typeof languageToolSpec>

/** Where Toolroom reaches the server: the explicit endpoint, else the Kubernetes service address. */
export function languageToolEndpoint(name: string, namespace: string, spec: LanguageToolSpec): string {
  return spec.endpoint ?? `http://${name}.${namespace}.svc.cluster.local:${spec.port}`
}
