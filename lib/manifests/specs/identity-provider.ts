import { z } from '@/lib/http/zod'
import { httpUrl } from './common'

/** Signature algorithms a subject token may use: asymmetric only, so nobody holding a shared secret can mint a person. */
export const SUBJECT_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const

const claimName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be a claim name of letters, digits, "_", ".", ":" or "-"')

// An identity provider whose people agents may act for (RFC 8693 token exchange; docs/design/access.md
// #on-whose-behalf). Its subject tokens are JWTs checked against its JWKS: the issuer (exactly
// `issuer`), an audience of `audiences`, expiry, and an algorithm of `algorithms`.
export const identityProviderSpec = z.strictObject({
  /** The `iss` its tokens carry, exactly; also where its metadata is discovered when `jwksUri` is not given. */
  issuer: httpUrl,
  /** Its JSON Web Key Set; when left out, discovered from `<issuer>/.well-known/openid-configuration`. */
  jwksUri: httpUrl.optional(),
  /** A subject token is accepted only if its `aud` names one of these. */
  audiences: z.array(z.string().min(1).max(512)).min(1, 'name at least one audience the subject tokens must carry').max(20),
  /** The claim that names the person (their subject). */
  subjectClaim: claimName.default('sub'),
  /** The claim with the name people see ("ap-clerk for Jane Doe"); the subject when the token has none. */
  displayNameClaim: claimName.default('name'),
  /** The claim with the person's email, if the provider sends one. */
  emailClaim: claimName.optional(),
  algorithms: z.array(z.enum(SUBJECT_TOKEN_ALGORITHMS)).min(1).max(SUBJECT_TOKEN_ALGORITHMS.length).default(['RS256', 'ES256', 'EdDSA']),
})

export type IdentityProviderSpec = z.infer<typeof identityProviderSpec>
