// A person's token from a trusted identity provider (the `subject_token` of RFC 8693 token exchange),
// checked before any agent may act for them: a JWT whose issuer is exactly an IdentityProvider's,
// signed with an algorithm it allows by a key of its JWKS, for one of its audiences, unexpired. The
// JWKS is fetched by the IdP client of lib/outbound (SSRF rules, no redirects, small answers) and
// cached; an IdP that cannot be reached is an error of its own, never a silent refusal of the person.
import 'server-only'
import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { prisma } from '@/lib/db'
import { identityProviderSpec, type IdentityProviderSpec } from '@/lib/manifests/specs/identity-provider'
import { idpFetch } from '@/lib/outbound/outbound-clients'
import { outboundErrorOf } from '@/lib/outbound/outbound-error'

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

/** Why a subject token is refused; `unavailable` means the provider could not be asked (try again later). */
export class SubjectTokenError extends Error {
  constructor(
    message: string,
    readonly unavailable = false,
  ) {
    super(message)
  }
}

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
  const keys = await keysOf(provider)
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: provider.spec.issuer,
      audience: provider.spec.audiences,
      algorithms: provider.spec.algorithms,
      requiredClaims: ['exp'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    })
    return { provider, claims: payload }
  } catch (e) {
    throw refusal(e, provider)
  }
}

function refusal(e: unknown, provider: TrustedProvider): Error {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  if (e instanceof errors.JWTExpired) return new SubjectTokenError('subject_token has expired')
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return new SubjectTokenError(`subject_token is not for this audience: ${idp} accepts ${provider.spec.audiences.join(', ')}`)
    return new SubjectTokenError(`subject_token's "${e.claim}" claim is unacceptable: ${e.reason === 'missing' ? 'missing' : e.message}`)
  }
  if (e instanceof errors.JOSEAlgNotAllowed)
    return new SubjectTokenError(`subject_token is signed with an algorithm ${idp} does not allow (${provider.spec.algorithms.join(', ')})`)
  if (e instanceof errors.JWSSignatureVerificationFailed) return new SubjectTokenError(`subject_token's signature does not verify with ${idp}'s keys`)
  if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys)
    return new SubjectTokenError(`subject_token is signed with a key ${idp}'s JWKS does not hold`)
  const down = unreachable(e, provider)
  if (down) return down
  if (e instanceof errors.JOSEError) return new SubjectTokenError(`subject_token is not valid: ${e.message}`)
  return e instanceof Error ? e : new Error(String(e))
}

function unreachable(e: unknown, provider: TrustedProvider): SubjectTokenError | null {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  const outbound = outboundErrorOf(e) ?? outboundErrorOf((e as { cause?: unknown })?.cause)
  if (outbound) return new SubjectTokenError(`${idp} could not be reached to check the subject token: ${outbound.message}`, true)
  if (e instanceof errors.JWKSTimeout) return new SubjectTokenError(`${idp} did not answer for its JWKS within ${IDP_TIMEOUT_MS} ms`, true)
  if (e instanceof errors.JWKSInvalid || (e instanceof errors.JOSEError && e.code === 'ERR_JOSE_GENERIC'))
    return new SubjectTokenError(`${idp} answered its JWKS request with something that is not a key set: ${e.message}`, true)
  if (e instanceof TypeError) return new SubjectTokenError(`${idp} could not be reached to check the subject token: ${e.message}`, true)
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
          [customFetch]: (url, init) => fetchFromIdp(url, init as RequestInit),
        })
  if (keySets.size > 100) keySets.delete(keySets.keys().next().value!)
  keySets.set(cacheKey, { jwks, jwksUri, until: Date.now() + JWKS_MAX_AGE_MS })
  return jwks
}

/** OpenID Connect discovery (the same IdP client): the document must name this very issuer. */
async function discoverJwksUri(provider: TrustedProvider): Promise<string> {
  const idp = `IdentityProvider ${provider.namespace}/${provider.name}`
  const url = `${provider.spec.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
  let metadata: { issuer?: unknown; jwks_uri?: unknown }
  try {
    const answer = await fetchFromIdp(url, { headers: { accept: 'application/json' } })
    if (!answer.ok) throw new SubjectTokenError(`${idp}'s discovery document ${url} answered HTTP ${answer.status}`, true)
    metadata = (await answer.json()) as typeof metadata
  } catch (e) {
    if (e instanceof SubjectTokenError) throw e
    throw unreachable(e, provider) ?? new SubjectTokenError(`${idp}'s discovery document ${url} is not JSON`, true)
  }
  if (metadata.issuer !== provider.spec.issuer) throw new SubjectTokenError(`${idp}'s discovery document names another issuer; set spec.jwksUri`, true)
  if (typeof metadata.jwks_uri !== 'string' || !/^https?:\/\//.test(metadata.jwks_uri))
    throw new SubjectTokenError(`${idp}'s discovery document names no jwks_uri; set spec.jwksUri`, true)
  return metadata.jwks_uri
}
