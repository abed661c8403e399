// Email-and-password sign-in through better-auth's own endpoint, so its password check and session
// creation apply; we add the limit on failed attempts (lib/auth/failed-attempts.ts), problem+json
// answers and the audit record.
import 'server-only'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { clientAddress } from '@/lib/request-origin/client-address'
import { countAttempt, releaseAttempt } from '@/lib/auth/failed-attempts'
import { callAuthEndpoint } from './call-auth-endpoint'

export interface SignedIn {
  user: { id: string; email: string; name: string; role: string }
  /** Set-Cookie header values that carry the session to the browser. */
  cookies: string[]
}

export async function signInWithPassword(email: string, password: string, request: Request, requestId?: string): Promise<SignedIn> {
  const ip = clientAddress(request)
  const normalizedEmail = email.trim().toLowerCase()
  const perAccount = await countAttempt('sign-in', normalizedEmail)
  if (!perAccount.allowed) {
    await recordAuditEvent({
      actor: { kind: 'user', name: normalizedEmail.slice(0, 254) },
      action: 'auth.sign_in_failed',
      kind: 'User',
      detail: { method: 'password', ip, reason: 'too_many_attempts_for_account' },
      requestId,
    })
    throw new AppError('TOO_MANY_REQUESTS', `too many sign-in attempts for this account; try again in ${perAccount.retryAfterSeconds} seconds`)
  }
  const response = await callAuthEndpoint(request, '/sign-in/email', { email, password, rememberMe: true })
  if (response.ok) {
    await releaseAttempt('sign-in', normalizedEmail)
    const body = (await response.json()) as { user: { id: string; email: string; name: string; role?: string } }
    await recordAuditEvent({
      actor: { kind: 'user', id: body.user.id, name: body.user.email },
      action: 'auth.signed_in',
      kind: 'User',
      resourceId: body.user.id,
      detail: { method: 'password', ip },
      requestId,
    })
    return {
      user: { id: body.user.id, email: body.user.email, name: body.user.name, role: body.user.role ?? 'viewer' },
      cookies: response.headers.getSetCookie(),
    }
  }

  const disabled = (await prisma.user.findUnique({ where: { email: normalizedEmail }, select: { disabledAt: true } }))?.disabledAt
  await recordAuditEvent({
    actor: { kind: 'user', name: normalizedEmail.slice(0, 254) },
    action: 'auth.sign_in_failed',
    kind: 'User',
    detail: { method: 'password', ip, reason: disabled ? 'disabled' : `http_${response.status}` },
    requestId,
  })
  throw new AppError('UNAUTHORIZED', 'wrong email or password, or the account is disabled')
}
