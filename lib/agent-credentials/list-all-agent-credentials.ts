// Gateway credentials across every agent, for the Access tokens page: newest first, filtered by
// state, agent and text, in keyset pages. Only credentials of agents that still exist are listed:
// the gateway refuses the others anyway (it joins the agent to authenticate).
import 'server-only'
import { likeLiteral } from '@/lib/text/like-literal'
import { db, sql } from '@/lib/sql'
import { decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'
import { credentialView, type CredentialState, type CredentialWithAgent } from './credential-view'
import { isUuid } from '@/lib/refs/uuid'

export interface CredentialListFilters {
  status: CredentialState | 'all'
  /** An agent's id, `namespace/name`, or a name (in any namespace). */
  agent?: string
  /** Case-insensitive text in the credential's name or creator, or the agent's namespace/name. */
  q?: string
  limit: number
  cursor?: string
}

export interface CredentialPage {
  items: CredentialWithAgent[]
  total: number
  nextCursor: string | null
}

const credentialsWithAgents = () => db.selectFrom('AgentCredential as c').innerJoin('Agent as a', 'a.id', 'c.agentId')
type CredentialQuery = ReturnType<typeof credentialsWithAgents>

export async function listAllAgentCredentials(f: CredentialListFilters): Promise<CredentialPage> {
  const now = new Date()
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  const [rows, { total }] = await Promise.all([
    filtered(credentialsWithAgents(), f, now)
      .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('c.createdAt', 'c.id'), '<', eb.tuple(after!.at, sql<string>`${after!.id}::uuid`))))
      .select([
        'c.id',
        'c.agentId',
        'c.name',
        'c.hint',
        'c.createdBy',
        'c.createdAt',
        'c.lastUsedAt',
        'c.expiresAt',
        'c.revokedAt',
        'a.namespace as agentNamespace',
        'a.name as agentName',
      ])
      .orderBy('c.createdAt', 'desc')
      .orderBy('c.id', 'desc')
      .limit(f.limit + 1)
      .execute(),
    filtered(credentialsWithAgents(), f, now)
      .select((eb) => eb.fn.countAll<bigint>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  const { items, nextCursor } = keysetPage(rows, f.limit, (last) => encodeTimeCursor(last.createdAt, last.id))
  return {
    items: items.map((r) => ({ ...credentialView(r, now.getTime()), agent: { namespace: r.agentNamespace, name: r.agentName } })),
    total: Number(total),
    nextCursor,
  }
}

function filtered(query: CredentialQuery, f: CredentialListFilters, now: Date): CredentialQuery {
  // The same precedence as credentialView: revoked first, then expired.
  if (f.status === 'revoked') query = query.where('c.revokedAt', 'is not', null)
  if (f.status === 'expired') query = query.where('c.revokedAt', 'is', null).where('c.expiresAt', '<=', now)
  if (f.status === 'active') query = query.where('c.revokedAt', 'is', null).where((eb) => eb.or([eb('c.expiresAt', 'is', null), eb('c.expiresAt', '>', now)]))
  if (f.agent) query = ofAgent(query, f.agent)
  if (f.q) {
    const like = `%${likeLiteral(f.q)}%`
    query = query.where((eb) =>
      eb.or([
        eb('c.name', 'ilike', like),
        eb('c.createdBy', 'ilike', like),
        eb(sql<string>`${eb.ref('a.namespace')} || '/' || ${eb.ref('a.name')}`, 'ilike', like),
      ]),
    )
  }
  return query
}

function ofAgent(query: CredentialQuery, agent: string): CredentialQuery {
  if (isUuid(agent)) return query.where('a.id', '=', sql<string>`${agent}::uuid`)
  const slash = agent.indexOf('/')
  if (slash < 0) return query.where('a.name', '=', agent)
  return query.where('a.namespace', '=', agent.slice(0, slash)).where('a.name', '=', agent.slice(slash + 1))
}
