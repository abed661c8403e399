// Who a verified subject token names, by its IdentityProvider's claim names (subjectClaim,
// displayNameClaim, emailClaim). Pure.
import type { IdentityProviderSpec } from '@/lib/manifests/specs/identity-provider'
import type { Person } from './person'

const MAX_SUBJECT = 255
const MAX_DISPLAY_NAME = 200

export class PersonClaimError extends Error {}

export function personOfClaims(spec: IdentityProviderSpec, claims: Record<string, unknown>): Person {
  const subject = claims[spec.subjectClaim]
  if (typeof subject !== 'string' || !subject.trim())
    throw new PersonClaimError(`subject_token has no "${spec.subjectClaim}" claim naming the person (the IdentityProvider's subjectClaim)`)
  if (subject.length > MAX_SUBJECT) throw new PersonClaimError(`subject_token's "${spec.subjectClaim}" claim is longer than ${MAX_SUBJECT} characters`)
  const named = claims[spec.displayNameClaim]
  const email = spec.emailClaim ? claims[spec.emailClaim] : undefined
  return {
    issuer: spec.issuer,
    subject,
    displayName: typeof named === 'string' && named.trim() ? named.trim().slice(0, MAX_DISPLAY_NAME) : subject,
    email: typeof email === 'string' && email.includes('@') && email.length <= 320 ? email : null,
    via: 'token_exchange',
    claims,
  }
}
