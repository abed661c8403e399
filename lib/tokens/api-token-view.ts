import type { Scope } from '@/lib/auth/access-rules'

export interface ApiTokenView {
  id: string
  name: string
  hint: string
  scopes: Scope[]
  /** Email of the person it acts for; null for the token from TOOLROOM_ADMIN_TOKEN. */
  owner: string | null
  origin: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
  status: 'active' | 'expired' | 'revoked'
}

export interface ApiTokenRow {
  id: string
  name: string
  hint: string
  scopes: string[]
  origin: string
  createdAt: Date
  expiresAt: Date | null
  lastUsedAt: Date | null
  revokedAt: Date | null
  user?: { email: string } | null
}

export function toApiTokenView(row: ApiTokenRow, now = new Date()): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    scopes: row.scopes as Scope[],
    owner: row.user?.email ?? null,
    origin: row.origin,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : row.expiresAt && row.expiresAt <= now ? 'expired' : 'active',
  }
}
