import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { auditActorOf } from '@/lib/audit/audit-actor'
import type { Actor } from '@/lib/auth/access-rules'
import { getAuth } from './better-auth'

/** Ends the caller's session (a token caller has none: nothing to end) and clears the cookie. */
export async function signOut(actor: Actor, request: Request, requestId?: string): Promise<Response> {
  const response = new Response(null, { status: 204 })
  if (actor.via !== 'session') return response
  const answer = await getAuth().api.signOut({ headers: request.headers, asResponse: true })
  for (const cookie of answer.headers.getSetCookie()) response.headers.append('set-cookie', cookie)
  await recordAuditEvent({ actor: auditActorOf(actor), action: 'auth.signed_out', kind: 'User', resourceId: actor.id, requestId })
  return response
}
