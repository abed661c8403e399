// What the API shows of an agent credential: never the token or its hash, only a hint. The portal
// uses these types as they are, so the answer and the screens cannot drift apart.

export const CREDENTIAL_STATES = ['active', 'expired', 'revoked'] as const
export type CredentialState = (typeof CREDENTIAL_STATES)[number]

export interface CredentialView {
  id: string
  agentId: string
  name: string
  hint: string
  createdBy: string | null
  createdAt: string
  lastUsedAt: string | null
  expiresAt: string | null
  revokedAt: string | null
  state: CredentialState
}

/** A credential in the list across all agents: with the agent it speaks for. */
export interface CredentialWithAgent extends CredentialView {
  agent: { namespace: string; name: string }
}

export interface CredentialRow {
  id: string
  agentId: string
  name: string
  hint: string
  createdBy: string | null
  createdAt: Date
  lastUsedAt: Date | null
  expiresAt: Date | null
  revokedAt: Date | null
}

/** The columns a view is made of; `hash` is deliberately not among them. */
export const CREDENTIAL_SELECT = {
  id: true,
  agentId: true,
  name: true,
  hint: true,
  createdBy: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const

export function credentialView(row: CredentialRow, now = Date.now()): CredentialView {
  // Revoked wins over expired: revoking is what a person did, expiry only what the clock did.
  const state = row.revokedAt ? 'revoked' : row.expiresAt && row.expiresAt.getTime() <= now ? 'expired' : 'active'
  return {
    id: row.id,
    agentId: row.agentId,
    name: row.name,
    hint: row.hint,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state,
  }
}
