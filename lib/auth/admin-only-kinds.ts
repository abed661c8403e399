// Kinds whose resources only admins may change: approval policies decide which calls wait for a
// person, Secrets hold the credentials tools run with, and an IdentityProvider decides whose people
// agents may act for. Everyone may still read them (Secrets
// without values). Shared by the server (apply, the resource routes, secret rotation) and the browser
// (which write controls to show).
import type { FieldError } from '@/lib/errors/app-error'
import { type Actor, isAllowed } from './access-rules'

export const ADMIN_ONLY_KINDS = ['SideEffectPolicy', 'Secret', 'IdentityProvider'] as const
export type AdminOnlyKind = (typeof ADMIN_ONLY_KINDS)[number]

/** The rule id a refusal names in problem+json `errors`. */
const ADMIN_ONLY_RULE = 'admin-only-kind'

export function isAdminOnlyKind(kind: unknown): kind is AdminOnlyKind {
  return (ADMIN_ONLY_KINDS as readonly unknown[]).includes(kind)
}

/** Whether `actor` may create, change or delete resources of `kind` (beyond the write access every change needs). */
export function mayChangeKind(actor: Actor, kind: string): boolean {
  return !isAdminOnlyKind(kind) || isAllowed(actor, 'admin')
}

export function adminOnlyMessage(kind: AdminOnlyKind): string {
  return `${kind} resources can be changed by admins only`
}

/** The refusal of a change to an admin-only kind, for one document of a manifest or one route. */
export function adminOnlyError(kind: AdminOnlyKind, at: { document?: number; name?: string } = {}): FieldError {
  return {
    ...(at.document !== undefined ? { document: at.document } : {}),
    kind,
    ...(at.name ? { name: at.name } : {}),
    field: 'kind',
    rule: ADMIN_ONLY_RULE,
    message: adminOnlyMessage(kind),
  }
}
