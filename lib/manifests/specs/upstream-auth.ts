import { z } from '@/lib/http/zod'
import { evenWithFieldErrors, httpUrl, resourceRef } from './common'

// OAuth 2.1 to an upstream, as a service (docs/design/gateway.md, "Upstream credentials"): Toolroom
// is the client, the token is the service's own, fetched with the client credentials grant and sent
// as a bearer token. The client secret is a Secret like every other credential.

/** A scope token as RFC 6749 §3.3 defines it: printable ASCII without space, `"` or `\`. */
const scopeToken = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be an OAuth scope token (printable ASCII, no spaces, quotes or backslashes)')

export const oauth2Client = z
  .strictObject({
    /** Only the service's own credentials so far; people's tokens come later (docs/design/access.md). */
    grantType: z.enum(['client_credentials']),
    /** The authorization server: its token endpoint is read from its metadata (RFC 8414, then OpenID discovery). */
    issuer: httpUrl.optional(),
    /** The token endpoint itself, for servers that publish no metadata. */
    tokenUrl: httpUrl.optional(),
    clientId: z.string().min(1, 'is required').max(512),
    /** Same-namespace Secret holding the client secret, as every secretRef. */
    clientSecretRef: z.strictObject({ name: resourceRef, key: z.string().max(253).optional() }),
    scopes: z.array(scopeToken).max(50).optional(),
    /** RFC 8707 resource indicator: the audience the token is asked for. */
    resource: httpUrl.refine((u) => !u.includes('#'), 'must not have a fragment (RFC 8707)').optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.issuer === undefined && spec.tokenUrl === undefined)
      ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'is required unless tokenUrl is set', params: { rule: 'required' } })
    if (spec.issuer !== undefined && spec.tokenUrl !== undefined)
      ctx.addIssue({ code: 'custom', path: ['tokenUrl'], message: 'is only allowed when issuer is not set', params: { rule: 'not-allowed' } })
  }, evenWithFieldErrors)

export type OAuth2Client = z.infer<typeof oauth2Client>
