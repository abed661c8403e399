// The token an upstream with `grantType: token_exchange` gets for the person a call is made for
// (docs/design/access.md#how-a-person-reaches-an-upstream): the subject token that person came with
// (kept sealed with the `tro_…` token exchange issued, lib/oauth/exchange-token.ts) exchanged again,
// RFC 8693, at the upstream's authorization server with Toolroom's client credentials, for the
// upstream's audience. Exchanged tokens are cached per person and credential in the one cache of
// upstream tokens (./get-upstream-token.ts: single-flight across processes, sealed at rest). A call
// for nobody, or for a person without a subject token, fails: no other credential stands in for them.
import 'server-only'
import { createHash } from 'node:crypto'
import { heldSubjectToken } from '@/lib/approvals/held-person'
import { DELEGATION_REFS, delegationStanding } from '@/lib/identity/delegation-standing'
import type { Person } from '@/lib/identity/person'
import type { OAuth2Client } from '@/lib/manifests/specs/upstream-auth'
import { openSecretValues } from '@/lib/secrets/encryption'
import { db, sql } from '@/lib/sql'
import { cachedUpstreamToken, requestUpstreamToken, serverOf } from './get-upstream-token'
import { upstreamTokenKey } from './upstream-token-key'
import { UpstreamTokenError } from './upstream-token-rules'

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange'
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'

/** Why a call cannot carry a person's token: `need` says what is missing (`person`, `subject_token`, `delegation`). */
export class PersonTokenUnavailable extends Error {
  constructor(
    readonly need: 'person' | 'subject_token' | 'delegation',
    message: string,
  ) {
    super(message)
    this.name = 'PersonTokenUnavailable'
  }
}

/** The UpstreamToken key of a person's exchanged tokens: the credential's own key, then the person's. */
export function exchangedTokenKey(namespace: string, oauth2: OAuth2Client, person: Pick<Person, 'issuer' | 'subject'>): string {
  const who = createHash('sha256').update(`${person.issuer}\n${person.subject}`).digest('hex')
  return `${upstreamTokenKey(namespace, oauth2)}:${who}`
}

/** Throws PersonTokenUnavailable, or UpstreamTokenError for the authorization server's refusal. */
export async function exchangeForUpstream(
  oauth2: OAuth2Client,
  namespace: string,
  person: Person | null | undefined,
  outcomeChanged: () => Promise<void>,
): Promise<string> {
  if (!person)
    throw new PersonTokenUnavailable(
      'person',
      'this upstream is called with the token of the person a call is made for (grantType token_exchange), and this call is made for nobody: the agent must act for a person (a tro_… token from token exchange at Toolroom)',
    )
  if (!person.delegationId && !person.approvalId)
    throw new PersonTokenUnavailable(
      'subject_token',
      `this upstream is called with the token of the person a call is made for (grantType token_exchange), and ${person.displayName} came without a token from a trusted identity provider (${VIA[person.via]}): only a person's token exchanged at Toolroom can be exchanged for this upstream`,
    )
  // Asked on every call, not cached: a disabled person or a revoked token stops reaching the upstream at once.
  // A held call run once approved exchanges its own copy: the tro_ token may be long gone (lib/approvals/held-person.ts).
  const delegation = person.approvalId ? await heldSubjectToken(person.approvalId) : await usableDelegation(person.delegationId!)
  if (!delegation)
    throw new PersonTokenUnavailable(
      'delegation',
      person.approvalId
        ? `the token of ${person.displayName} this approved call kept has expired, or ${person.displayName} is disabled, or the agent's credential was revoked: no token is exchanged for them`
        : `the token this agent acts for ${person.displayName} with has expired or was revoked, or ${person.displayName} is disabled: no token is exchanged for them`,
    )
  return cachedUpstreamToken(
    exchangedTokenKey(namespace, oauth2, person),
    serverOf(oauth2),
    async () => {
      let subjectToken: string
      try {
        subjectToken = openSecretValues(delegation.ciphertext, delegation.keyId).token
      } catch (e) {
        throw new UpstreamTokenError('secret_unavailable', `the person's subject token cannot be opened: ${(e as Error).message}`, serverOf(oauth2))
      }
      return requestUpstreamToken(oauth2, namespace, TOKEN_EXCHANGE_GRANT, {
        subject_token: subjectToken,
        subject_token_type: delegation.tokenType,
        requested_token_type: ACCESS_TOKEN_TYPE,
        ...(oauth2.audience !== undefined ? { audience: oauth2.audience } : {}),
      })
    },
    outcomeChanged,
  )
}

const VIA: Record<Person['via'], string> = {
  oauth_consent: 'they consented to an OAuth client as a Toolroom user',
  approval: 'the call was held before approvals kept the subject token',
  token_exchange: 'their token was exchanged without keeping it',
}

/** The delegation's sealed subject token, while the token it belongs to may still be used. */
async function usableDelegation(id: string): Promise<{ ciphertext: Uint8Array; keyId: string; tokenType: string } | null> {
  const standing = delegationStanding(DELEGATION_REFS)
  const row = await db
    .selectFrom('DelegatedAccessToken as d')
    .innerJoin('AgentCredential as c', 'c.id', 'd.credentialId')
    .leftJoin('User as u', 'u.id', 'd.userId')
    .select(['d.subjectCiphertext as ciphertext', 'd.subjectKeyId as keyId', 'd.subjectTokenType as tokenType'])
    .where('d.id', '=', id)
    .where('d.expiresAt', '>', sql<Date>`now()`)
    .where('d.subjectCiphertext', 'is not', null)
    .where(standing.credentialUsable)
    .where(standing.personUsable)
    .where(standing.providerTrusted)
    .executeTakeFirst()
  return row?.ciphertext && row.keyId && row.tokenType ? { ciphertext: row.ciphertext, keyId: row.keyId, tokenType: row.tokenType } : null
}
