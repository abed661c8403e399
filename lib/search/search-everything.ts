// The portal's global search (Ctrl-K): registered resources by name, waiting approvals by tool and
// agent, and recorded calls of the tools and agents found (or by call id). One round trip for the
// palette instead of one list request per kind; every query here is bounded and uses an index that
// leads with its filter, so the answer costs the same with ten calls or ten million (BENCHMARKS.md,
// "Global search").
import 'server-only'
import { prisma } from '@/lib/db'
import type { Kind } from '@/lib/manifests/kinds'
import { KIND_ADAPTERS } from '@/lib/resources/kind-adapters'
import { isCanonicalToolId } from '@/lib/tools/naming'
import { likeLiteral } from '@/lib/text/like-literal'
import { newestFirst, rankByName } from './rank-matches'
import { isUuid } from '@/lib/refs/uuid'

export const SEARCH_KINDS = ['Agent', 'Tool', 'Unit', 'LanguageTool', 'Connector', 'Secret'] as const satisfies readonly Kind[]
type SearchKind = (typeof SEARCH_KINDS)[number]

/** Rows a kind's name search reads before ranking: enough for exact and prefix matches to surface. */
const CANDIDATES = 50
/** Tools and agents whose calls are looked up (one bounded index scan each). */
const CALL_SUBJECTS = 3

export interface ResourceHit {
  kind: SearchKind
  id: string
  namespace: string
  name: string
  description: string | null
}

export interface ApprovalHit {
  id: string
  status: string
  toolId: string
  level: string | null
  agent: { id: string; namespace: string; name: string }
  requestedAt: string
}

export interface CallHit {
  id: string
  toolId: string
  outcome: string
  agent: { id: string; namespace: string; name: string }
  startedAt: string
}

export interface SearchResult {
  query: string
  resources: ResourceHit[]
  approvals: ApprovalHit[]
  calls: CallHit[]
}

export async function searchEverything(query: string, limit: number): Promise<SearchResult> {
  const q = query.trim()
  const byKind = await Promise.all(SEARCH_KINDS.map((kind) => searchKind(kind, q, limit)))
  const resources = byKind.flat()
  const [approvals, calls] = await Promise.all([searchApprovals(q, limit), searchCalls(q, resources, limit)])
  return { query: q, resources, approvals, calls }
}

async function searchKind(kind: SearchKind, q: string, limit: number): Promise<ResourceHit[]> {
  const adapter = KIND_ADAPTERS[kind]
  const rows = (await adapter.delegate(prisma).findMany({
    where: { OR: adapter.searchColumns.map((c) => ({ [c]: { contains: likeLiteral(q), mode: 'insensitive' } })) },
    select: { id: true, namespace: true, name: true, ...(adapter.searchColumns.includes('description') ? { description: true } : {}) },
    orderBy: [{ name: 'asc' }, { namespace: 'asc' }],
    take: CANDIDATES,
  })) as unknown as { id: string; namespace: string; name: string; description?: string }[]
  return rankByName(rows, q)
    .slice(0, limit)
    .map((r) => ({ kind, id: r.id, namespace: r.namespace, name: r.name, description: r.description ?? null }))
}

const APPROVAL_COLUMNS = { id: true, status: true, toolId: true, level: true, agentId: true, agentNamespace: true, agentName: true, requestedAt: true } as const

/** Waiting requests whose tool or agent matches, oldest first (as the queue lists them); or one by its id or call id. */
async function searchApprovals(q: string, limit: number): Promise<ApprovalHit[]> {
  const rows = isUuid(q)
    ? await prisma.approvalRequest.findMany({ where: { OR: [{ id: q }, { callId: q }] }, select: APPROVAL_COLUMNS, take: 1 })
    : await prisma.approvalRequest.findMany({
        where: {
          status: 'pending',
          OR: [{ toolId: { contains: likeLiteral(q), mode: 'insensitive' } }, { agentName: { contains: likeLiteral(q), mode: 'insensitive' } }],
        },
        select: APPROVAL_COLUMNS,
        orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }],
        take: limit,
      })
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    toolId: r.toolId,
    level: r.level,
    agent: { id: r.agentId, namespace: r.agentNamespace, name: r.agentName },
    requestedAt: r.requestedAt.toISOString(),
  }))
}

const CALL_COLUMNS = { id: true, toolId: true, outcome: true, agentId: true, agentNamespace: true, agentName: true, startedAt: true } as const
type CallRow = { id: string; toolId: string; outcome: string; agentId: string; agentNamespace: string; agentName: string; startedAt: Date }

/**
 * A call by its id; else the latest calls of the tool the query names (any tool id, registered or
 * not) and of the best-matching Tools and Agents. Each lookup walks the (toolId, startedAt) or
 * (agentId, startedAt) index for `limit` rows; an `IN` list over several would sort every call of
 * those tools.
 */
async function searchCalls(q: string, resources: ResourceHit[], limit: number): Promise<CallHit[]> {
  if (isUuid(q)) {
    const call = await prisma.toolCall.findFirst({ where: { id: q }, select: CALL_COLUMNS })
    return call ? [toCallHit(call)] : []
  }
  const toolIds = new Set(
    resources
      .filter((r) => r.kind === 'Tool')
      .slice(0, CALL_SUBJECTS)
      .map((r) => r.name),
  )
  if (isCanonicalToolId(q)) toolIds.add(q)
  const agentIds = resources
    .filter((r) => r.kind === 'Agent')
    .slice(0, CALL_SUBJECTS)
    .map((r) => r.id)
  const latest = (where: { toolId: string } | { agentId: string }) =>
    prisma.toolCall.findMany({ where, select: CALL_COLUMNS, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], take: limit }) as Promise<CallRow[]>
  const lists = await Promise.all([...[...toolIds].map((toolId) => latest({ toolId })), ...agentIds.map((agentId) => latest({ agentId }))])
  return newestFirst(lists, limit).map(toCallHit)
}

function toCallHit(c: CallRow): CallHit {
  return {
    id: c.id,
    toolId: c.toolId,
    outcome: c.outcome,
    agent: { id: c.agentId, namespace: c.agentNamespace, name: c.agentName },
    startedAt: c.startedAt.toISOString(),
  }
}
