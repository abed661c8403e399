// Who a call is made for: the person an agent acts for (docs/design/access.md#on-whose-behalf). The
// gateway learns it from the caller's credential alone (lib/oauth/identify-person-token.ts and
// lib/oauth/identify-oauth-token.ts) and carries it on the caller's identity (AgentIdentity.person),
// so every later step (policies, approvals, the call record, the audit log) reads one value.

/** A person an agent acts for. */
export interface Person {
  /** Who vouches for them: a trusted IdentityProvider's issuer, or Toolroom's own (a person signed in here). */
  issuer: string
  /** Who they are at that issuer (its subject claim, or a Toolroom user id). */
  subject: string
  /** The name people see ("ap-clerk for Jane Doe"). */
  displayName: string
  email: string | null
  /**
   * How the agent came to act for them: a person's consent to an OAuth client, or RFC 8693 token
   * exchange. A held call run once approved keeps the way it was made (`approvalId` says it is held);
   * `approval` is left only for requests held before the way was kept.
   */
  via: 'oauth_consent' | 'token_exchange' | 'approval'
  /** The subject token's verified claims (token exchange); empty for consent. */
  claims: Readonly<Record<string, unknown>>
  /**
   * The exchanged token's record (token exchange only), which keeps the person's subject token sealed:
   * an upstream with `grantType: token_exchange` exchanges it again (lib/upstream-auth/exchange-for-upstream.ts).
   */
  delegationId?: string
  /**
   * The OAuth client the person consented to (consent only): a held call checks again, when it runs,
   * that the client still stands (lib/identity/delegation-standing.ts).
   */
  oauthClientId?: string
  /**
   * The approval request a held call runs under, once approved: it keeps its own sealed copy of the
   * person's subject token (lib/approvals/held-person.ts), which is exchanged instead of the delegation's.
   */
  approvalId?: string
}

/** What answers and records show of a person: `onBehalfOf`. */
export interface OnBehalfOf {
  issuer: string
  subject: string
  displayName: string
}

export function onBehalfOf(person: Person | null | undefined): OnBehalfOf | null {
  return person ? { issuer: person.issuer, subject: person.subject, displayName: person.displayName } : null
}

export interface OnBehalfOfColumns {
  onBehalfOfIssuer: string | null
  onBehalfOfSubject: string | null
  onBehalfOfDisplayName: string | null
}

/** The three columns a call record or approval request keeps; all null when nobody was acted for. */
export function onBehalfOfColumns(person: OnBehalfOf | null | undefined): OnBehalfOfColumns {
  return {
    onBehalfOfIssuer: person?.issuer ?? null,
    onBehalfOfSubject: person?.subject ?? null,
    onBehalfOfDisplayName: person?.displayName ?? null,
  }
}

/** `onBehalfOf` of a row with those columns, for answers. */
export function onBehalfOfOf(row: Partial<OnBehalfOfColumns>): OnBehalfOf | null {
  if (!row.onBehalfOfIssuer || !row.onBehalfOfSubject) return null
  return { issuer: row.onBehalfOfIssuer, subject: row.onBehalfOfSubject, displayName: row.onBehalfOfDisplayName ?? row.onBehalfOfSubject }
}

/** "ap-clerk for Jane Doe": an agent and the person it acts for, as people read it. */
export function actingFor(agentName: string, person: OnBehalfOf | null | undefined): string {
  return person ? `${agentName} for ${person.displayName}` : agentName
}

/** The issuer Toolroom vouches for its own people as: its authorization server, `<origin>/api/auth`. */
export function toolroomIssuer(mcpResource: string): string {
  return `${new URL(mcpResource).origin}/api/auth`
}

/** The person who consented to an OAuth client (a Toolroom account), for the gateway at `mcpResource`. */
export function consentingPerson(user: { id: string; name: string; email: string | null }, mcpResource: string, oauthClientId: string): Person {
  return {
    issuer: toolroomIssuer(mcpResource),
    subject: user.id,
    displayName: user.name || user.email || user.id,
    email: user.email,
    via: 'oauth_consent',
    claims: {},
    oauthClientId,
  }
}
