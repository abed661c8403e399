// Who is calling as an agent, by its own bearer credential (`tra_…`). Answers are kept in memory for
// a few seconds (lib/auth/agent-identity-cache.ts) so a busy agent does not cost a database round
// trip per call. At `/mcp` an OAuth access token may stand for an agent too:
// lib/gateway/identify-gateway-bearer.ts.
import 'server-only'
import { prisma } from '@/lib/db'
import { db } from '@/lib/sql'
import { countCacheLookup } from '@/lib/observability/metrics'
import type { AgentIdentity } from './agent-identity'
import { cachedAgentIdentity, rememberAgentIdentity } from './agent-identity-cache'
import { bearerToken, hashToken } from './secret-token'

export type { AgentIdentity } from './agent-identity'

// lastUsedAt is a hint for people, not an audit trail: written at most once a minute per credential.
const TOUCH_EVERY_MS = 60_000

const touched: Map<string, number> = ((globalThis as { __toolroomAgentTouched?: Map<string, number> }).__toolroomAgentTouched ??= new Map())

/** The agent a request speaks for, or null when it carries no valid, unrevoked, unexpired credential. */
export async function authenticateAgent(request: Request): Promise<AgentIdentity | null> {
  const token = bearerToken(request)
  if (!token || !token.startsWith('tra_')) return null
  return identifyAgentToken(token)
}

export async function identifyAgentToken(token: string): Promise<AgentIdentity | null> {
  const now = Date.now()
  // Keyed by the token itself (this process's memory only), so a hit costs no hashing.
  const hit = cachedAgentIdentity(token, now)
  countCacheLookup('agent_credential', hit !== undefined)
  if (hit) return hit.identity
  const hash = hashToken(token)

  const row = await db
    .selectFrom('AgentCredential as c')
    .innerJoin('Agent as a', 'a.id', 'c.agentId')
    .select(['c.id', 'c.agentId', 'a.name', 'a.namespace', 'c.expiresAt', 'c.revokedAt'])
    .where('c.hash', '=', hash)
    .executeTakeFirst()
  const valid = row && !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now)
  const identity: AgentIdentity | null = valid
    ? { kind: 'agent', agentId: row.agentId, name: row.name, namespace: row.namespace, credentialId: row.id, person: null }
    : null
  // An expiring credential is never cached past its expiry.
  rememberAgentIdentity(token, identity, row?.expiresAt, now)
  if (identity) touch(identity.credentialId, now)
  return identity
}

function touch(credentialId: string, now: number) {
  if ((touched.get(credentialId) ?? 0) > now - TOUCH_EVERY_MS) return
  touched.set(credentialId, now)
  prisma.agentCredential.update({ where: { id: credentialId }, data: { lastUsedAt: new Date(now) } }).catch(() => {})
}
