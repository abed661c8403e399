// What a caller may do with API tokens, so a token cannot outgrow itself. People (sessions) make and
// revoke their own tokens within their role. A token caller also needs `write` (or `admin`) to make
// or revoke any, may put on a new token only scopes it holds itself, may not let the new one outlive
// it (an expiring token cannot mint one that never expires), and may revoke only tokens that hold no
// scope beyond its own. Pure.
import { type Actor, isAllowed, type Scope } from '@/lib/auth/access-rules'
import type { FieldError } from '@/lib/errors/app-error'

const TOKEN_RULES = {
  manage: 'token-needs-write',
  scope: 'within-own-role',
  expiry: 'within-own-expiry',
} as const

/** Why this caller may not make or revoke tokens at all, or null. */
function tokenManagementProblem(by: Actor): FieldError | null {
  if (by.kind !== 'token' || isAllowed(by, 'write')) return null
  return { field: '(token)', rule: TOKEN_RULES.manage, message: 'an API token needs the "write" scope to create or revoke tokens' }
}

/** Problems with a token this caller asks to mint (scopes it asks for, the expiry it would get). */
export function mintingProblems(by: Actor, scopes: readonly Scope[], expiresAt: Date | null): FieldError[] {
  const problems: FieldError[] = []
  const manage = tokenManagementProblem(by)
  if (manage) problems.push(manage)
  for (const scope of scopes)
    if (!isAllowed(by, scope))
      problems.push({ field: 'scopes', rule: TOKEN_RULES.scope, message: `"${scope}" is beyond ${by.kind === 'token' ? "this token's scopes" : 'your role'}` })
  const own = by.kind === 'token' ? by.expiresAt : undefined
  if (own && (expiresAt === null || expiresAt.getTime() > own.getTime()))
    problems.push({
      field: 'expiresInDays',
      rule: TOKEN_RULES.expiry,
      message: `a token minted by a token expires no later than it does (${own.toISOString()})${expiresAt === null ? ', so never is not allowed' : ''}`,
    })
  return problems
}

/** The expiry a new token gets when the caller names none: the default, cut to the minting token's own. */
export function defaultExpiry(by: Actor, days: number, now = Date.now()): Date {
  const wanted = new Date(now + days * 86_400_000)
  const own = by.kind === 'token' ? by.expiresAt : undefined
  return own && own.getTime() < wanted.getTime() ? own : wanted
}

/** Why this caller may not revoke a token holding `scopes`, or null. */
export function revokingProblem(by: Actor, target: { id: string; scopes: readonly string[] }): FieldError | null {
  const manage = tokenManagementProblem(by)
  if (manage) return manage
  if (by.kind !== 'token' || target.id === by.id) return null
  const beyond = target.scopes.filter((s) => !isAllowed(by, s as Scope))
  return beyond.length ? { field: 'id', rule: TOKEN_RULES.scope, message: `that token holds scopes beyond this token's own: ${beyond.join(', ')}` } : null
}
