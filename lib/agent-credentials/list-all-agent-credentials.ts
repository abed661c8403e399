// Gateway credentials across every agent, for the Access tokens page: newest first, filtered by
// state, agent and text, in keyset pages. Only credentials of agents that still exist are listed:
// the gateway refuses the others anyway (it joins the agent to authenticate).
import 'server-only'
import { prisma } from '@/lib/db'
import { likeLiteral } from '@/lib/search/like-literal'
import { Prisma } from '@/lib/generated/prisma/client'
import { decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'
import { credentialView, type CredentialRow, type CredentialState, type CredentialWithAgent } from './credential-view'

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

type ListedRow = CredentialRow & { agentNamespace: string; agentName: string }

export async function listAllAgentCredentials(f: CredentialListFilters): Promise<CredentialPage> {
  const now = new Date()
  const where = conditions(f, now)
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  const page = after ? Prisma.sql`AND (c."createdAt", c.id) < (${after.at}, ${after.id}::uuid)` : Prisma.empty
  const [rows, [{ total }]] = await Promise.all([
    prisma.$queryRaw<ListedRow[]>`
      SELECT c.id, c."agentId", c.name, c.hint, c."createdBy", c."createdAt", c."lastUsedAt", c."expiresAt", c."revokedAt",
             a.namespace AS "agentNamespace", a.name AS "agentName"
        FROM "AgentCredential" c JOIN "Agent" a ON a.id = c."agentId"
       WHERE ${where} ${page}
       ORDER BY c."createdAt" DESC, c.id DESC
       LIMIT ${f.limit + 1}`,
    prisma.$queryRaw<{ total: bigint }[]>`
      SELECT count(*) AS total FROM "AgentCredential" c JOIN "Agent" a ON a.id = c."agentId" WHERE ${where}`,
  ])
  const { items, nextCursor } = keysetPage(rows, f.limit, (last) => encodeTimeCursor(last.createdAt, last.id))
  return {
    items: items.map((r) => ({ ...credentialView(r, now.getTime()), agent: { namespace: r.agentNamespace, name: r.agentName } })),
    total: Number(total),
    nextCursor,
  }
}

function conditions(f: CredentialListFilters, now: Date): Prisma.Sql {
  const and: Prisma.Sql[] = [Prisma.sql`TRUE`]
  // The same precedence as credentialView: revoked first, then expired.
  if (f.status === 'revoked') and.push(Prisma.sql`c."revokedAt" IS NOT NULL`)
  if (f.status === 'expired') and.push(Prisma.sql`c."revokedAt" IS NULL AND c."expiresAt" <= ${now}`)
  if (f.status === 'active') and.push(Prisma.sql`c."revokedAt" IS NULL AND (c."expiresAt" IS NULL OR c."expiresAt" > ${now})`)
  if (f.agent) and.push(agentCondition(f.agent))
  if (f.q) {
    const like = `%${likeLiteral(f.q)}%`
    and.push(Prisma.sql`(c.name ILIKE ${like} OR c."createdBy" ILIKE ${like} OR (a.namespace || '/' || a.name) ILIKE ${like})`)
  }
  return Prisma.join(and, ' AND ')
}

function agentCondition(agent: string): Prisma.Sql {
  if (UUID.test(agent)) return Prisma.sql`a.id = ${agent}::uuid`
  const slash = agent.indexOf('/')
  if (slash < 0) return Prisma.sql`a.name = ${agent}`
  return Prisma.sql`a.namespace = ${agent.slice(0, slash)} AND a.name = ${agent.slice(slash + 1)}`
}
