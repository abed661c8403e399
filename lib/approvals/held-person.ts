// A held call acts, once approved, for the person it was asked for (docs/design/approvals.md#on-whose-behalf).
// When it is held, the request keeps how the agent came to act for them and, for a person from a
// trusted IdentityProvider, its own sealed copy of their subject token with that token's expiry: the
// tro_ token and its DelegatedAccessToken row may be gone before anyone decides. When it runs, the
// Person is rebuilt as the gateway had it, so the upstream is reached by the very same path
// (token exchange, the person's own connection), and the delegation rule is asked again
// (lib/identity/delegation-standing.ts): a person who may no longer be acted for is not acted for,
// and never replaced by another credential or by nobody.
import 'server-only'
import type { ApprovalRequest, Prisma } from '@/lib/generated/prisma/client'
import { delegationLapse, delegationStanding } from '@/lib/identity/delegation-standing'
import { onBehalfOfOf, type OnBehalfOfColumns, type Person } from '@/lib/identity/person'
import { db, sql } from '@/lib/sql'

type HeldColumns = Pick<
  ApprovalRequest,
  | 'onBehalfOfVia'
  | 'onBehalfOfEmail'
  | 'onBehalfOfClaims'
  | 'delegationId'
  | 'delegationCredentialId'
  | 'delegationClientId'
  | 'personUserId'
  | 'subjectSealed'
  | 'subjectKeyId'
  | 'subjectTokenType'
  | 'subjectExpiresAt'
>

/** The columns as written: the claims are a JSON object going in. */
type HeldColumnsInput = Partial<Omit<HeldColumns, 'onBehalfOfClaims'>> & { onBehalfOfClaims?: Prisma.InputJsonObject }

/** What the request keeps of the person, beyond the three `onBehalfOf*` columns. */
export async function heldPersonColumns(
  person: Person | null | undefined,
  tx: Pick<Prisma.TransactionClient, 'delegatedAccessToken'>,
): Promise<HeldColumnsInput> {
  if (!person || person.via === 'approval') return {}
  const kept: HeldColumnsInput = {
    onBehalfOfVia: person.via,
    onBehalfOfEmail: person.email,
    onBehalfOfClaims: person.claims as Prisma.InputJsonObject,
    // A person who consented here is a Toolroom account: its subject is the user id.
    personUserId: person.via === 'oauth_consent' ? person.subject : null,
    delegationClientId: person.via === 'oauth_consent' ? (person.oauthClientId ?? null) : null,
  }
  if (!person.delegationId) return kept
  const delegation = await tx.delegatedAccessToken.findUnique({
    where: { id: person.delegationId },
    select: { credentialId: true, userId: true, subjectCiphertext: true, subjectKeyId: true, subjectTokenType: true, claims: true, expiresAt: true },
  })
  // Revoked in the moment since the call came in: nothing is kept, and the run refuses to act for them.
  if (!delegation) return { ...kept, delegationId: person.delegationId }
  const exp = (delegation.claims as { exp?: unknown } | null)?.exp
  return {
    ...kept,
    delegationId: person.delegationId,
    delegationCredentialId: delegation.credentialId,
    personUserId: delegation.userId,
    // The same sealed bytes under the same key: a copy, never opened here.
    subjectSealed: delegation.subjectCiphertext,
    subjectKeyId: delegation.subjectKeyId,
    subjectTokenType: delegation.subjectTokenType,
    // The subject token's own expiry (verified at the exchange); the tro_ token's, never later, otherwise.
    subjectExpiresAt: typeof exp === 'number' ? new Date(exp * 1000) : delegation.expiresAt,
  }
}

/** The person an approved call runs for, as the gateway had them when the call was held. */
export function heldPerson(approval: Partial<Pick<ApprovalRequest, 'id'> & OnBehalfOfColumns & HeldColumns>): Person | null {
  const who = onBehalfOfOf(approval)
  if (!who) return null
  const via = approval.onBehalfOfVia === 'oauth_consent' || approval.onBehalfOfVia === 'token_exchange' ? approval.onBehalfOfVia : 'approval'
  return {
    ...who,
    email: approval.onBehalfOfEmail ?? null,
    via,
    // As verified when the call was made: the Policies asked again at the run read the same person.
    claims: isRecord(approval.onBehalfOfClaims) ? approval.onBehalfOfClaims : {},
    ...(approval.delegationId ? { delegationId: approval.delegationId } : {}),
    ...(via === 'oauth_consent' && approval.delegationClientId ? { oauthClientId: approval.delegationClientId } : {}),
    ...(via === 'token_exchange' && approval.id ? { approvalId: approval.id } : {}),
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Why an approved call may not run for its person now (errorCode and message for the call's record), or null. */
export async function heldPersonRefusal(
  approval: Partial<OnBehalfOfColumns & HeldColumns> & Pick<ApprovalRequest, 'agentId'>,
  now = Date.now(),
): Promise<{ code: 'person_token_expired' | 'person_unavailable'; message: string } | null> {
  const person = onBehalfOfOf(approval)
  if (!person) return null
  const name = person.displayName
  const notRun = 'so the approved call did not run: not for them, and not with any other credential'
  const exchanged = approval.onBehalfOfVia === 'token_exchange'
  if (exchanged && (!approval.subjectSealed || !approval.subjectExpiresAt))
    return { code: 'person_unavailable', message: `the token this agent acted for ${name} with was revoked as the call was held, ${notRun}` }
  if (exchanged && approval.subjectExpiresAt!.getTime() <= now)
    return {
      code: 'person_token_expired',
      message: `${name}'s token from their identity provider expired at ${approval.subjectExpiresAt!.toISOString()}, before the call could run: Toolroom can no longer act for them, ${notRun} (the agent may ask again with a fresh token of theirs)`,
    }
  const consented = approval.onBehalfOfVia === 'oauth_consent'
  const lapse = await delegationLapse({
    agentId: approval.agentId,
    credentialId: exchanged ? (approval.delegationCredentialId ?? null) : null,
    oauthClientId: consented ? (approval.delegationClientId ?? null) : null,
    userId: approval.personUserId ?? null,
    issuer: exchanged ? person.issuer : null,
  })
  if (!lapse) return null
  const why = {
    credential: `the agent credential that acted for ${name} was revoked or has expired`,
    client: `the OAuth client ${name} consented to was revoked or no longer acts as this agent`,
    person: `${name} is disabled or was removed in Toolroom`,
    provider: `${name}'s identity provider (${person.issuer}) is no longer trusted`,
  }[lapse]
  return { code: 'person_unavailable', message: `${why}, ${notRun}` }
}

/** The request's sealed copy of the person's subject token, while it is unexpired and the delegation rule still holds. */
export async function heldSubjectToken(approvalId: string): Promise<{ ciphertext: Uint8Array; keyId: string; tokenType: string } | null> {
  const standing = delegationStanding({ credential: 'c', user: 'u', userId: 'a.personUserId', issuer: 'a.onBehalfOfIssuer' })
  const row = await db
    .selectFrom('ApprovalRequest as a')
    .leftJoin('AgentCredential as c', 'c.id', 'a.delegationCredentialId')
    .leftJoin('User as u', 'u.id', 'a.personUserId')
    .select(['a.subjectSealed as ciphertext', 'a.subjectKeyId as keyId', 'a.subjectTokenType as tokenType'])
    .where('a.id', '=', approvalId)
    .where('a.subjectExpiresAt', '>', sql<Date>`now()`)
    .where(standing.credentialUsable)
    .where(standing.personUsable)
    .where(standing.providerTrusted)
    .executeTakeFirst()
  return row?.ciphertext && row.keyId && row.tokenType ? { ciphertext: row.ciphertext, keyId: row.keyId, tokenType: row.tokenType } : null
}
