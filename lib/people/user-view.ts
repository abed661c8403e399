import type { Role } from '@/lib/auth/access-rules'

export interface UserView {
  id: string
  email: string
  name: string
  role: Role
  disabled: boolean
  createdAt: string
  /** Sign-in methods: `credential` (password) and/or the OIDC provider id. */
  signIn: string[]
}

export interface UserRow {
  id: string
  email: string
  name: string
  role: string
  disabledAt: Date | null
  createdAt: Date
  accounts?: { providerId: string }[]
}

export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
    signIn: (row.accounts ?? []).map((a) => a.providerId),
  }
}
