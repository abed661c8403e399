// A person changes their own password through better-auth's endpoint, so its check of the current
// password, its hasher and its database-backed attempt limit all apply. Their other sessions end;
// this one carries on under the fresh cookie better-auth sets. We add problem+json answers and the
// audit record.
import { auditActorOf } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { AppError } from '@/lib/errors/app-error'
import type { Actor } from '@/lib/auth/access-rules'
import { clientAddress } from '@/lib/request-origin/client-address'
import { countAttempt, releaseAttempt } from '@/lib/auth/failed-attempts'
import { callAuthEndpoint } from './call-auth-endpoint'

export async function changeOwnPassword(
  actor: Actor,
  passwords: { currentPassword: string; newPassword: string },
  request: Request,
  requestId?: string,
): Promise<Response> {
  if (actor.via !== 'session')
    throw new AppError('FORBIDDEN', 'only a signed-in person can change their password; an API token cannot', [
      { field: 'authorization', rule: 'session-only', message: 'sign in with email and password' },
    ])
  const by = auditActorOf(actor)
  const perAccount = await countAttempt('password-change', actor.id)
  if (!perAccount.allowed) {
    await recordAuditEvent({
      actor: by,
      action: 'auth.password_change_failed',
      kind: 'User',
      resourceId: actor.id,
      detail: { reason: 'too_many_attempts_for_account', ip: clientAddress(request) },
      requestId,
    })
    throw new AppError('TOO_MANY_REQUESTS', `too many attempts; try again in ${perAccount.retryAfterSeconds} seconds`)
  }
  const answer = await callAuthEndpoint(request, '/change-password', { ...passwords, revokeOtherSessions: true }, { withSession: true })
  if (!answer.ok) {
    const body = (await answer.json().catch(() => ({}))) as { code?: string; message?: string }
    await recordAuditEvent({
      actor: by,
      action: 'auth.password_change_failed',
      kind: 'User',
      resourceId: actor.id,
      detail: { reason: body.code ?? `http_${answer.status}`, ip: clientAddress(request) },
      requestId,
    })
    if (answer.status === 429)
      throw new AppError('TOO_MANY_REQUESTS', `too many attempts; try again in ${answer.headers.get('x-retry-after') ?? 'a few'} seconds`)
    if (body.code === 'INVALID_PASSWORD')
      throw new AppError('FORBIDDEN', 'the current password is wrong', [{ field: 'currentPassword', rule: 'matches', message: 'is not your current password' }])
    throw new AppError('BAD_REQUEST', `the password was not changed: ${body.message ?? `status ${answer.status}`}`)
  }
  await releaseAttempt('password-change', actor.id)
  await recordAuditEvent({
    actor: by,
    action: 'user.password_changed',
    kind: 'User',
    resource: actor.name,
    resourceId: actor.id,
    detail: { otherSessionsEnded: true },
    requestId,
  })
  const response = new Response(null, { status: 204 })
  for (const cookie of answer.headers.getSetCookie()) response.headers.append('set-cookie', cookie)
  return response
}
