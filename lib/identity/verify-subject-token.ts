// A person's token from a trusted identity provider (the `subject_token` of RFC 8693 token exchange),
// checked before any agent may act for them: a JWT whose issuer is exactly an IdentityProvider's,
// signed with an algorithm it allows by a key of its JWKS, for one of its audiences, unexpired. The
// JWKS is fetched by the IdP client of lib/outbound (SSRF rules, no redirects, small answers) and
// cached; an IdP that cannot be reached is an error of its own, never a silent refusal of the person.
// What the checks see (keys fetched or not, refusals by reason) becomes the provider's status
// (./record-identity-provider-status.ts, docs/design/access.md#identity-provider-status).
import 'server-only'
import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { prisma } from '@/lib/db'
import { identityProviderSpec, type IdentityProviderSpec } from '@/lib/manifests/specs/identity-provider'
import { idpFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'
import type { KeysFailure, RefusalReason } from './identity-provider-conditions'
import { noteKeysObserved, noteRefusal } from './record-identity-provider-status'

const IDP_TIMEOUT_MS = 5_000
/** A JWKS is fetched again at most this often when a token names a key it lacks (jose's cooldown), and kept this long. */
const JWKS_COOLDOWN_MS = 30_000
const JWKS_MAX_AGE_MS = 10 * 60_000
/** Clock skew tolerated between Toolroom and an identity provider (expiry, not-before). */
const CLOCK_TOLERANCE_SECONDS = 5

export interface TrustedProvider {
  name: string
  namespace: string
  spec: IdentityProviderSpec
}

export interface VerifiedSubjectToken {
  provider: TrustedProvider
  claims: JWTPayload
}

/**
 * Why a subject token is refused; `unavailable` means the provider could not be asked (try again
 * later). `reason` is what the provider's status counts the refusal as, or why its keys could not be had.
 */
export class SubjectTokenError extends Error {
  readonly unavailable: boolean
  constructor(
    message: string,
    readonly reason: { refused: RefusalReason } | { keys: KeysFailure } | null = null,
  ) {
    super(message)
    this.unavailable = reason !== null && 'keys' in reason
  }
}

const refused = (message: string, reason: RefusalReason) => new SubjectTokenError(message, { refused: reason })
const keysUnavailable = (message: string, failure: KeysFailure) => new SubjectTokenError(message, { keys: failure })

export async function verifySubjectToken(token: string): Promise<VerifiedSubjectToken> {
  let unverified: JWTPayload
  try {
    unverified = decodeJwt(token)
  } catch {
    throw new SubjectTokenError('subject_token is not a JWT (a signed token from a trusted identity provider)')
  }
  if (typeof unverified.iss !== 'string' || !unverified.iss) throw new SubjectTokenError('subject_token names no issuer (iss)')
  const row = await prisma.identityProvider.findUnique({ where: { issuer: unverified.iss }, select: { name: true, namespace: true, spec: true } })
  if (!row) throw new SubjectTokenError(`subject_token's issuer ${JSON.stringify(unverified.iss.slice(0, 200))} is no trusted IdentityProvider here`)
  const provider: TrustedProvider = { name: row.name, namespace: row.namespace, spec: identityProviderSpec.parse(row.spec) }
  try {
    const { payload } = await jwtVerify(token, await keysOf(provider), {
      issuer: provider.spec.issuer,
      audience: provider.spec.audiences,
      algorithms: provider.spec.algorithms,
      requiredClaims: ['exp'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    })
    return { provider, claims: payload }
  } catch (e) {
    const error = e instanceof SubjectTokenError ? e : refusal(e, provider)
    if (error instanceof SubjectTokenError) noteSubjectTokenError(provider.spec.issuer, error)
    throw error
  }
}

/** The provider's status learns of a refusal, or of keys it could not fetch. */
function noteSubjectTokenError(issuer: string, error: SubjectTokenError): void {
  if (!error.reason) return
  if ('refused' in error.reason) noteRefusal(issuer, error.reason.refused)
  else noteKeysObserved(issuer, { fetched: false, failure: error.reason.keys, error: error.message })
}

function refusal(e: unknown, provider: TrustedProvider): Error {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  if (e instanceof errors.JWTExpired) return refused('subject_token has expired', 'expired')
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return refused(`subject_token is not for this audience: ${idp} accepts ${provider.spec.audiences.join(', ')}`, 'audience')
    return refused(`subject_token's "${e.claim}" claim is unacceptable: ${e.reason === 'missing' ? 'missing' : e.message}`, 'claims')
  }
  if (e instanceof errors.JOSEAlgNotAllowed)
    return refused(`subject_token is signed with an algorithm ${idp} does not allow (${provider.spec.algorithms.join(', ')})`, 'algorithm')
  if (e instanceof errors.JWSSignatureVerificationFailed) return refused(`subject_token's signature does not verify with ${idp}'s keys`, 'signature')
  if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys)
    return refused(`subject_token is signed with a key ${idp}'s JWKS does not hold`, 'unknown_key')
  const down = unreachable(e, provider)
  if (down) return down
  if (e instanceof errors.JOSEError) return refused(`subject_token is not valid: ${e.message}`, 'claims')
  return e instanceof Error ? e : new Error(String(e))
}

function unreachable(e: unknown, provider: TrustedProvider): SubjectTokenError | null {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  const outbound = outboundErrorOf(e) ?? outboundErrorOf((e as { cause?: unknown })?.cause)
  if (outbound) return keysUnavailable(`${idp} could not be reached to check the subject token: ${outbound.message}`, 'unreachable')
  if (e instanceof errors.JWKSTimeout) return keysUnavailable(`${idp} did not answer for its JWKS within ${IDP_TIMEOUT_MS} ms`, 'timeout')
  if (e instanceof errors.JWKSInvalid || (e instanceof errors.JOSEError && e.code === 'ERR_JOSE_GENERIC'))
    return keysUnavailable(`${idp} answered its JWKS request with something that is not a key set: ${e.message}`, 'invalid_key_set')
  if (e instanceof TypeError) return keysUnavailable(`${idp} could not be reached to check the subject token: ${e.message}`, 'unreachable')
  return null
}

// One key set per provider and where its keys are, so a changed jwksUri (or issuer) starts afresh.
const keySets = ((globalThis as { __toolroomIdpKeys?: Map<string, { jwks: JWTVerifyGetKey; jwksUri: string; until: number }> }).__toolroomIdpKeys ??= new Map())

const fetchFromIdp = (url: string, init: RequestInit) => idpFetch()(url, init, { timeoutMs: IDP_TIMEOUT_MS })

async function keysOf(provider: TrustedProvider): Promise<JWTVerifyGetKey> {
  const cacheKey = `${provider.spec.issuer}\n${provider.spec.jwksUri ?? ''}`
  const hit = keySets.get(cacheKey)
  if (hit && hit.until > Date.now()) return hit.jwks
  const jwksUri = provider.spec.jwksUri ?? (await discoverJwksUri(provider))
  const jwks =
    hit && hit.jwksUri === jwksUri
      ? hit.jwks
      : createRemoteJWKSet(new URL(jwksUri), {
          timeoutDuration: IDP_TIMEOUT_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
          [customFetch]: async (url, init) => {
            const answer = await fetchFromIdp(url, init as RequestInit)
            if (answer.ok) void countKeys(provider.spec.issuer, answer.clone())
            return answer
          },
        })
  if (keySets.size > 100) keySets.delete(keySets.keys().next().value!)
  keySets.set(cacheKey, { jwks, jwksUri, until: Date.now() + JWKS_MAX_AGE_MS })
  return jwks
}

/** A key set fetched: its size and time go to the provider's status (what is no key set, jose refuses, and that is noted as a failure). */
async function countKeys(issuer: string, answer: Response): Promise<void> {
  try {
    const body = (await answer.json()) as { keys?: unknown }
    if (Array.isArray(body?.keys)) noteKeysObserved(issuer, { fetched: true, keyCount: body.keys.length })
  } catch {
    // Not JSON: jose's own read of the answer fails the same way, and that failure is what is noted.
  }
}

/** OpenID Connect discovery (the same IdP client): the document must name this very issuer. */
async function discoverJwksUri(provider: TrustedProvider): Promise<string> {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  const url = `${provider.spec.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
  let metadata: { issuer?: unknown; jwks_uri?: unknown }
  try {
    const answer = await fetchFromIdp(url, { headers: { accept: 'application/json' } })
    if (!answer.ok) throw keysUnavailable(`${idp}'s discovery document ${url} answered HTTP ${answer.status}`, 'discovery')
    metadata = (await answer.json()) as typeof metadata
  } catch (e) {
    if (e instanceof SubjectTokenError) throw e
    throw unreachable(e, provider) ?? keysUnavailable(`${idp}'s discovery document ${url} is not JSON`, 'discovery')
  }
  if (metadata.issuer !== provider.spec.issuer) throw keysUnavailable(`${idp}'s discovery document names another issuer; set spec.jwksUri`, 'discovery')
  if (typeof metadata.jwks_uri !== 'string' || !/^https?:\/\//.test(metadata.jwks_uri))
    throw keysUnavailable(`${idp}'s discovery document names no jwks_uri; set spec.jwksUri`, 'discovery')
  return metadata.jwks_uri
}
