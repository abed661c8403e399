// A person's consent to an MCP client acting as an agent (the authorization code flow's consent
// step). The consent page shows which client asks, as which agent, for what; the decision goes to
// better-auth's OAuth provider (which checks the signed request and the person's session and issues
// the code). A client an admin registered is already bound to its agent; a dynamically registered one
// is bound here, once, to an agent an admin lets accept such clients. Consenting takes the `write`
// role (operator or admin), like other changes to what agents may do; every decision is audited.
import 'server-only'
import { getAuth } from './better-auth'
import type { Actor } from '@/lib/auth/access-rules'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { findAgent } from '@/lib/oauth/manage-oauth-clients'

export interface ConsentRequest {
  client: { clientId: string; name: string; registration: 'admin' | 'dynamic'; redirectUri: string | null }
  /** The agent the client is bound to, or null when the person picks one of `choices`. */
  agent: { id: string; namespace: string; name: string } | null
  choices: Array<{ id: string; namespace: string; name: string }>
  scopes: string[]
  resources: string[]
}

/** What the consent page shows for the signed query it was sent to; null when it names no known, enabled client. */
export async function describeConsent(query: URLSearchParams): Promise<ConsentRequest | null> {
  const clientId = query.get('client_id')
  if (!clientId || clientId.length > 200) return null
  const client = await prisma.oauthClient.findUnique({ where: { clientId } })
  if (!client || client.disabled) return null
  const registered = await prisma.oAuthClientRegistration.findUnique({ where: { clientId } })
  const agent = client.referenceId
    ? await prisma.agent.findFirst({ where: { id: client.referenceId }, select: { id: true, namespace: true, name: true } }).catch(() => null)
    : null
  const choices = agent
    ? []
    : await prisma.agent.findMany({
        where: { id: { in: (await prisma.oAuthDynamicRegistration.findMany({ select: { agentId: true } })).map((r) => r.agentId) } },
        select: { id: true, namespace: true, name: true },
        orderBy: [{ namespace: 'asc' }, { name: 'asc' }],
      })
  return {
    client: { clientId, name: client.name ?? clientId, registration: registered ? 'admin' : 'dynamic', redirectUri: query.get('redirect_uri') },
    agent,
    choices,
    scopes: (query.get('scope') ?? '').split(' ').filter(Boolean),
    resources: query.getAll('resource'),
  }
}

export interface ConsentDecision {
  /** The consent page's query, as better-auth signed it. */
  oauthQuery: string
  accept: boolean
  /** For a dynamically registered client: the agent (id or namespace/name) it will act as. */
  agent?: string
}

export async function decideConsent(request: Request, actor: Actor, decision: ConsentDecision, requestId?: string): Promise<{ redirectTo: string }> {
  if (actor.via !== 'session') throw new AppError('FORBIDDEN', 'consent is given by a signed-in person in the browser, not with an API token')
  const query = new URLSearchParams(decision.oauthQuery)
  const clientId = query.get('client_id') ?? ''
  const client = clientId ? await prisma.oauthClient.findUnique({ where: { clientId } }) : null
  if (!client || client.disabled) throw new AppError('NOT_FOUND', 'the OAuth client of this request does not exist or was revoked')
  let agentId = client.referenceId
  if (decision.accept) agentId = await bindAgent(client.clientId, client.referenceId, decision.agent)

  // The provider answers with a redirect, or (asked by a script) with JSON naming where to go.
  const answer = (await getAuth().api.oauth2Consent({
    request,
    headers: request.headers,
    body: { accept: decision.accept, oauth_query: decision.oauthQuery },
    asResponse: true,
  })) as Response
  const location = answer.headers.get('location')
  const body = location
    ? null
    : ((await answer.json().catch(() => null)) as { redirect_uri?: string; url?: string; error_description?: string; error?: string; message?: string } | null)
  if (!location && !(answer.ok && (body?.redirect_uri ?? body?.url)))
    throw new AppError(
      'BAD_REQUEST',
      `the authorization request cannot be completed: ${body?.error_description ?? body?.message ?? body?.error ?? `HTTP ${answer.status}`}`,
    )
  const redirectTo = (location ?? body?.redirect_uri ?? body?.url)!
  const agent = agentId ? await prisma.agent.findFirst({ where: { id: agentId }, select: { id: true, namespace: true, name: true } }).catch(() => null) : null
  await recordAuditEvent({
    actor: auditActorOf(actor),
    action: decision.accept ? 'oauth_client.consented' : 'oauth_client.denied',
    kind: 'Agent',
    namespace: agent?.namespace,
    resource: agent?.name,
    resourceId: agent?.id,
    detail: { clientId: client.clientId, client: client.name, scopes: (query.get('scope') ?? '').split(' ').filter(Boolean) },
    requestId,
  })
  return { redirectTo }
}

/** The agent the client acts as: its binding, or (dynamically registered, unbound) the one picked now, bound once and for all. */
async function bindAgent(clientId: string, bound: string | null, picked: string | undefined): Promise<string> {
  if (bound) {
    if (picked) {
      const agent = await findAgent(picked)
      if (agent.id !== bound) throw new AppError('CONFLICT', 'this client is bound to another agent; an admin registers a new client for this one')
    }
    return bound
  }
  if (!picked)
    throw new AppError('VALIDATION_FAILED', 'pick the agent this client will act as', [
      { field: 'agent', rule: 'required', message: 'the agent this client acts as' },
    ])
  const agent = await findAgent(picked)
  if (!(await prisma.oAuthDynamicRegistration.findUnique({ where: { agentId: agent.id } })))
    throw new AppError(
      'FORBIDDEN',
      `agent "${agent.namespace}/${agent.name}" does not accept dynamically registered clients (an admin allows that on the Access tokens page)`,
    )
  // One binding per client, whoever consents first: a concurrent consent for another agent is refused.
  const { count } = await prisma.oauthClient.updateMany({ where: { clientId, referenceId: null }, data: { referenceId: agent.id } })
  if (count === 0) {
    const now = await prisma.oauthClient.findUnique({ where: { clientId }, select: { referenceId: true } })
    if (now?.referenceId !== agent.id) throw new AppError('CONFLICT', 'this client was just bound to another agent')
  }
  return agent.id
}
