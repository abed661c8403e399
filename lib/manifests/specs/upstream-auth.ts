import { z } from '@/lib/http/zod'
import { evenWithFieldErrors, httpUrl, resourceRef } from './common'

// OAuth 2.1 to an upstream (docs/design/gateway.md, "Upstream credentials"): Toolroom is the client,
// the token is the service's own (client credentials grant) or the person's a call is made for (token
// exchange), sent as a bearer token. The client secret is a Secret like every other credential.

/** A scope token as RFC 6749 §3.3 defines it: printable ASCII without space, `"` or `\`. */
const scopeToken = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be an OAuth scope token (printable ASCII, no spaces, quotes or backslashes)')

export const oauth2Client = z
  .strictObject({
    /**
     * `client_credentials`: the service's own token. `token_exchange`: the token of the person a call is
     * made for, exchanged (RFC 8693) from the subject token they came with, with these same client
     * credentials (docs/design/access.md#how-a-person-reaches-an-upstream). An MCP server may be
     * connected instead (oauth2Connection below).
     */
    grantType: z.enum(['client_credentials', 'token_exchange']),
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
    /** RFC 8693 `audience`: the upstream's logical name at its authorization server (token_exchange only). */
    audience: z.string().min(1).max(512).optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.audience !== undefined && spec.grantType !== 'token_exchange')
      ctx.addIssue({ code: 'custom', path: ['audience'], message: 'is only allowed with grantType token_exchange', params: { rule: 'not-allowed' } })
    if (spec.issuer === undefined && spec.tokenUrl === undefined)
      ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'is required unless tokenUrl is set', params: { rule: 'required' } })
    if (spec.issuer !== undefined && spec.tokenUrl !== undefined)
      ctx.addIssue({ code: 'custom', path: ['tokenUrl'], message: 'is only allowed when issuer is not set', params: { rule: 'not-allowed' } })
  }, evenWithFieldErrors)

export type OAuth2Client = z.infer<typeof oauth2Client>

/**
 * An MCP server that follows MCP authorization (docs/design/gateway.md, "Connected upstreams"): its
 * authorization server is whatever its protected-resource metadata names, an operator signs in there
 * once from the LanguageTool's page (authorization code with PKCE), and the refresh token kept from
 * that sign-in gets every later access token. Without a clientId, Toolroom registers itself (RFC 7591).
 */
export const oauth2Connection = z
  .strictObject({
    grantType: z.literal('authorization_code'),
    /** A client registered with the server's authorization server beforehand; dynamic registration otherwise. */
    clientId: z.string().min(1, 'is required').max(512).optional(),
    /** Same-namespace Secret holding the pre-registered client's secret (none: a public client). */
    clientSecretRef: z.strictObject({ name: resourceRef, key: z.string().max(253).optional() }).optional(),
    /** Asked for at the authorization server; otherwise what the server's metadata lists as supported. */
    scopes: z.array(scopeToken).max(50).optional(),
    /**
     * Whose account calls use (docs/design/access.md#connected-accounts): `service`, the one connection an
     * operator makes from the LanguageTool's page; `perPerson`, each person's own, connected from their
     * Connections page (the operator's connection then serves discovery only).
     */
    connect: z.enum(['service', 'perPerson']).optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.clientSecretRef !== undefined && spec.clientId === undefined)
      ctx.addIssue({ code: 'custom', path: ['clientSecretRef'], message: 'is only allowed with clientId', params: { rule: 'not-allowed' } })
  }, evenWithFieldErrors)

export type OAuth2Connection = z.infer<typeof oauth2Connection>

/** An MCP server's `auth.oauth2`: a service's own client credentials, or a connection an operator makes. */
export const mcpServerOAuth2 = z.discriminatedUnion('grantType', [oauth2Client, oauth2Connection])

export const isConnection = (oauth2: OAuth2Client | OAuth2Connection): oauth2 is OAuth2Connection => oauth2.grantType === 'authorization_code'

/** Calls use each person's own connection, not the operator's (docs/design/access.md#connected-accounts). */
export const isPerPerson = (oauth2: OAuth2Client | OAuth2Connection): oauth2 is OAuth2Connection => isConnection(oauth2) && oauth2.connect === 'perPerson'
