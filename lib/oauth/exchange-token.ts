// RFC 8693 token exchange at Toolroom's token endpoint: an agent (its `tra_…` credential as
// `actor_token`) asks to act for a person (their token from a trusted IdentityProvider as
// `subject_token`) at Toolroom's `/mcp` (`resource`), and gets a short-lived `tro_…` access token that
// means "this agent, acting for this person" (what a JWT's `act` claim would say; the token is opaque
// and looked up like every other, lib/oauth/identify-person-token.ts). Refusals are RFC 8693 §2.2.2
// errors: `invalid_request` for a request or token that is wrong or unacceptable, `invalid_target` for a
// resource that is not this gateway, `temporarily_unavailable` when the IdP cannot be reached.
// docs/design/access.md#on-whose-behalf has the rules and why.
import 'server-only'
import { createHash, randomBytes } from 'node:crypto'
import { identifyAgentToken } from '@/lib/auth/authenticate-agent'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { requestOrigin } from '@/lib/request-origin/public-origin'
import { hashOAuthToken } from '@/lib/oauth/oauth-secrets'
import { sealSecretValues } from '@/lib/secrets/encryption'
import { MCP_SCOPE, OAUTH_PREFIXES, oauthSettings } from '@/lib/oauth/oauth-settings'
import { isMcpResource, mcpResourceOf } from '@/lib/oauth/protected-resource'
import { sqlIn } from '@/lib/sql'
import { personOfClaims, PersonClaimError } from '@/lib/identity/person-claims'
import { toolroomAccountOf } from '@/lib/identity/portal-person'
import { noteRefusal } from '@/lib/identity/record-identity-provider-status'
import { SubjectTokenError, verifySubjectToken } from '@/lib/identity/verify-subject-token'

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange'
const TOKEN_TYPE = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
} as const
/** A person's token from an IdP is a JWT whichever of these its client calls it. */
const SUBJECT_TOKEN_TYPES: readonly string[] = [TOKEN_TYPE.jwt, TOKEN_TYPE.accessToken, TOKEN_TYPE.idToken]
/** Claims kept with the token for policies, at most this much JSON. */
const MAX_STORED_CLAIMS_BYTES = 8 * 1024

type ExchangeErrorCode = 'invalid_request' | 'invalid_target' | 'invalid_scope' | 'temporarily_unavailable'

class ExchangeRefusal extends Error {
  constructor(
    readonly code: ExchangeErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export function isTokenExchange(body: string): boolean {
  return new URLSearchParams(body).get('grant_type') === TOKEN_EXCHANGE_GRANT
}

export async function exchangeToken(request: Request, requestId?: string): Promise<Response> {
  try {
    const form = new URLSearchParams(await request.text())
    return Response.json(await exchange(request, form, requestId), { headers: NO_STORE })
  } catch (e) {
    if (e instanceof ExchangeRefusal)
      return Response.json({ error: e.code, error_description: e.message }, { status: e.code === 'temporarily_unavailable' ? 503 : 400, headers: NO_STORE })
    throw e
  }
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

async function exchange(request: Request, form: URLSearchParams, requestId?: string) {
  const one = (name: string, required: boolean): string | null => {
    const values = form.getAll(name)
    if (values.length > 1) throw new ExchangeRefusal('invalid_request', `${name} is given ${values.length} times; give it once`)
    if (required && !values[0]) throw new ExchangeRefusal('invalid_request', `${name} is required for token exchange`)
    return values[0] || null
  }
  const subjectToken = one('subject_token', true)!
  const subjectTokenType = one('subject_token_type', true)!
  const actorToken = one('actor_token', true)
  const actorTokenType = one('actor_token_type', true)
  const requestedType = one('requested_token_type', false)
  const scope = one('scope', false)
  const audience = one('audience', false)
  const resources = form.getAll('resource')

  if (!SUBJECT_TOKEN_TYPES.includes(subjectTokenType))
    throw new ExchangeRefusal('invalid_request', `subject_token_type must be one of ${SUBJECT_TOKEN_TYPES.join(', ')} (a JWT from a trusted identity provider)`)
  if (actorTokenType !== TOKEN_TYPE.accessToken)
    throw new ExchangeRefusal('invalid_request', `actor_token_type must be ${TOKEN_TYPE.accessToken} (the agent's tra_… credential)`)
  if (requestedType && requestedType !== TOKEN_TYPE.accessToken)
    throw new ExchangeRefusal('invalid_request', `requested_token_type can only be ${TOKEN_TYPE.accessToken} here`)
  if (scope && scope.split(' ').some((s) => s && s !== MCP_SCOPE))
    throw new ExchangeRefusal('invalid_scope', `the only scope an exchanged token has is "${MCP_SCOPE}"`)

  const resource = await targetOf(request, resources, audience)

  // The actor first: a request that is not an agent's learns nothing about subject tokens.
  const agent = actorToken!.startsWith('tra_') ? await identifyAgentToken(actorToken!) : null
  if (!agent) throw new ExchangeRefusal('invalid_request', 'actor_token is not a valid agent credential (tra_…): unknown, revoked or expired')

  const verified = await verifySubjectToken(subjectToken).catch((e: unknown) => {
    if (e instanceof SubjectTokenError) throw new ExchangeRefusal(e.unavailable ? 'temporarily_unavailable' : 'invalid_request', e.message)
    throw e
  })
  let person
  try {
    person = personOfClaims(verified.provider.spec, verified.claims)
  } catch (e) {
    if (e instanceof PersonClaimError) {
      noteRefusal(verified.provider.spec.issuer, 'claims')
      throw new ExchangeRefusal('invalid_request', e.message)
    }
    throw e
  }
  const account = await toolroomAccountOf({ issuer: verified.provider.spec.issuer, subject: person.subject, email: person.email })
  if (account?.disabled) throw new ExchangeRefusal('invalid_request', `${person.displayName} is disabled in Toolroom: no agent may act for them`)

  const credential = await prisma.agentCredential.findUnique({ where: { id: agent.credentialId }, select: { expiresAt: true } })
  const now = Date.now()
  const subjectExpiresAt = verified.claims.exp! * 1000
  // Acting for someone never outlasts their own token, nor the agent's credential.
  const expiresAt = new Date(Math.min(now + oauthSettings().accessTokenSeconds * 1000, subjectExpiresAt, credential?.expiresAt?.getTime() ?? Infinity))
  const token = `${OAUTH_PREFIXES.opaqueAccessToken}${randomBytes(32).toString('base64url')}`
  const replayKey =
    typeof verified.claims.jti === 'string' && verified.claims.jti
      ? `jti:${verified.provider.spec.issuer} ${verified.claims.jti}`
      : `token:${createHash('sha256').update(subjectToken).digest('hex')}`

  await prisma.$transaction(async (tx) => {
    await tx.subjectTokenUse.deleteMany({ where: { expiresAt: { lt: new Date(now) } } })
    // The key's row is the one place two exchanges of one subject token meet: the second inserts nothing.
    const used = await sqlIn(tx)
      .insertInto('SubjectTokenUse')
      .values({ key: replayKey, expiresAt: new Date(subjectExpiresAt + 60_000) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst()
    if (used.numInsertedOrUpdatedRows === BigInt(0)) {
      noteRefusal(verified.provider.spec.issuer, 'replay')
      throw new ExchangeRefusal('invalid_request', 'subject_token was already exchanged: each person token is exchanged once')
    }
    await tx.delegatedAccessToken.deleteMany({ where: { expiresAt: { lt: new Date(now) } } })
    await tx.delegatedAccessToken.create({
      data: {
        hash: hashOAuthToken(token.slice(OAUTH_PREFIXES.opaqueAccessToken.length)),
        agentId: agent.agentId,
        credentialId: agent.credentialId,
        identityProvider: `${verified.provider.namespace}/${verified.provider.name}`,
        issuer: person.issuer,
        subject: person.subject,
        displayName: person.displayName,
        email: person.email,
        claims: boundedClaims(verified.claims),
        userId: account?.id ?? null,
        resource,
        expiresAt,
        // Kept for upstreams that see the person (grantType token_exchange): sealed, for this token's lifetime only.
        ...sealedSubject(subjectToken, subjectTokenType),
      },
    })
    await recordAuditEvent(
      {
        actor: { kind: 'agent', id: agent.agentId, name: `${agent.namespace}/${agent.name}` },
        action: 'token.exchanged',
        kind: 'Agent',
        namespace: agent.namespace,
        resource: agent.name,
        resourceId: agent.agentId,
        detail: {
          onBehalfOf: { issuer: person.issuer, subject: person.subject, displayName: person.displayName },
          identityProvider: `${verified.provider.namespace}/${verified.provider.name}`,
          credentialId: agent.credentialId,
          expiresAt: expiresAt.toISOString(),
        },
        requestId,
      },
      tx,
    )
  })
  return {
    access_token: token,
    issued_token_type: TOKEN_TYPE.accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.floor((expiresAt.getTime() - now) / 1000)),
    scope: MCP_SCOPE,
  }
}

/** The resource the token is for: exactly one, this gateway's `/mcp` (RFC 8707); an audience, if given, the same. */
async function targetOf(request: Request, resources: string[], audience: string | null): Promise<string> {
  if (resources.length !== 1) throw new ExchangeRefusal('invalid_target', "give exactly one resource: this gateway's <origin>/mcp")
  const resource = resources[0]
  let url: URL
  try {
    url = new URL(resource)
  } catch {
    throw new ExchangeRefusal('invalid_target', 'resource must be an absolute URL: this gateway’s <origin>/mcp')
  }
  const ours = resource === mcpResourceOf(url.origin) && (url.origin === requestOrigin(request) || (await isMcpResource(url.origin)))
  if (!ours)
    throw new ExchangeRefusal('invalid_target', `${resource.slice(0, 200)} is not this gateway's /mcp; exchanged tokens are for Toolroom's gateway only`)
  if (audience !== null && audience !== resource) throw new ExchangeRefusal('invalid_target', 'audience, when given, must be the resource')
  return resource
}

function boundedClaims(claims: Record<string, unknown>): object {
  const json = JSON.stringify(claims)
  if (json.length <= MAX_STORED_CLAIMS_BYTES) return JSON.parse(json) as object
  const { iss, sub, aud, exp, iat, jti } = claims
  return { iss, sub, aud, exp, iat, jti, truncated: true }
}

function sealedSubject(token: string, type: string) {
  const sealed = sealSecretValues({ token })
  return { subjectCiphertext: sealed.ciphertext, subjectKeyId: sealed.keyId, subjectTokenType: type }
}
