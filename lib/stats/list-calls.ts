// The calls explorer: ToolCall rows newest first, filtered, in keyset pages over (startedAt, id).
// Every filter has an index that leads with it and ends in startedAt (see the migrations), and
// each page seeks with a plain `startedAt <=` bound, so deep pages cost what the first one does.
import 'server-only'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import type { Prisma } from '@/lib/generated/prisma/client'
import { decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'
import { onBehalfOfOf, type OnBehalfOfColumns } from '@/lib/identity/person'
import { parseAgentRef } from '@/lib/resources/parse-agent-ref'
import { parseToolStatKey } from './tool-stat-key'

export interface CallFilters {
  agentId?: string
  /** An agent as people name it: `namespace/name`, a name (every namespace), or an id. */
  agent?: string
  tool?: string
  toolKey?: string
  namespace?: string
  outcome?: string
  channel?: string
  from?: Date
  to?: Date
  limit: number
  cursor?: string
}

/** Columns of a list row: everything but the (possibly large) args and result; the upstream's excerpt is bounded. */
export const LIST_COLUMNS = {
  id: true,
  startedAt: true,
  finishedAt: true,
  agentId: true,
  agentNamespace: true,
  agentName: true,
  unit: true,
  toolId: true,
  toolNamespace: true,
  toolKey: true,
  provenance: true,
  level: true,
  channel: true,
  outcome: true,
  errorCode: true,
  errorMessage: true,
  upstreamExcerpt: true,
  latencyMs: true,
  attempts: true,
  idempotencyKey: true,
  requestId: true,
  onBehalfOfIssuer: true,
  onBehalfOfSubject: true,
  onBehalfOfDisplayName: true,
} satisfies Prisma.ToolCallSelect

/** A call row as answers show it: the person it was made for as one `onBehalfOf` (or null). */
export function toCallView<T extends OnBehalfOfColumns>(row: T) {
  const { onBehalfOfIssuer: _issuer, onBehalfOfSubject: _subject, onBehalfOfDisplayName: _name, ...rest } = row
  return { ...rest, onBehalfOf: onBehalfOfOf(row) }
}

function unresolved(key: string): boolean {
  const parsed = parseToolStatKey(key)
  return parsed !== null && parsed.source === null
}

export async function listCalls(f: CallFilters) {
  if (f.from && f.to && f.from >= f.to)
    throw new AppError('VALIDATION_FAILED', 'the time range is empty: "from" must be before "to"', [
      { field: 'from', rule: 'range', message: 'must be before "to"' },
    ])
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  // Names become the registered agents' ids, so the (agentId, startedAt) index still does the work.
  const agentIds = f.agent ? await agentIdsOf(f.agent, f.agentId) : null
  if (agentIds && agentIds.length === 0) return { items: [], nextCursor: null }
  const afterTime = after?.at ?? null

  const startedAt: Prisma.DateTimeFilter = {}
  if (f.from) startedAt.gte = f.from
  if (f.to) startedAt.lt = f.to
  if (afterTime) startedAt.lte = afterTime
  const where: Prisma.ToolCallWhereInput = {
    ...(agentIds ? { agentId: agentIds.length === 1 ? agentIds[0] : { in: agentIds } } : f.agentId ? { agentId: f.agentId } : {}),
    ...(f.tool ? { toolId: f.tool } : {}),
    // A tool's calls are the rows of its key, as its statistics count them; calls of a tool the caller's
    // set did not have are recorded without a key (Unresolved/<toolId>) and found by the id. The id a
    // resolved key names is not asked for as well: the planner takes the two for independent, expects
    // next to no rows, and sorts all of the tool's failures instead of reading them in order from the
    // failures' (toolKey, startedAt) index (26 against 0.24 ms at 10 M calls; BENCHMARKS.md, "Statistics").
    ...(f.toolKey
      ? unresolved(f.toolKey)
        ? { toolKey: null, AND: [{ toolId: parseToolStatKey(f.toolKey)?.toolId ?? f.toolKey }] }
        : { toolKey: f.toolKey }
      : {}),
    ...(f.namespace ? { toolNamespace: f.namespace } : {}),
    ...(f.outcome ? { outcome: f.outcome } : {}),
    ...(f.channel ? { channel: f.channel } : {}),
    ...(Object.keys(startedAt).length > 0 ? { startedAt } : {}),
    ...(after ? { OR: [{ startedAt: { lt: afterTime! } }, { id: { lt: after.id } }] } : {}),
  }
  const rows = await prisma.toolCall.findMany({ where, select: LIST_COLUMNS, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], take: f.limit + 1 })
  const page = keysetPage(rows, f.limit, (last) => encodeTimeCursor(last.startedAt, last.id))
  return { ...page, items: page.items.map(toCallView) }
}

/** The ids of the registered agents a reference names (at most 100 of a bare name), within `agentId` if both are given. */
async function agentIdsOf(ref: string, agentId?: string): Promise<string[]> {
  const parsed = parseAgentRef(ref)
  const rows = await prisma.agent.findMany({ where: parsed, select: { id: true }, take: 100 })
  return rows.map((r) => r.id).filter((id) => !agentId || id === agentId)
}

/** One call with its stored (already redacted by the gateway) arguments and result. */
export async function getCall(id: string) {
  const call = await prisma.toolCall.findFirst({ where: { id } })
  if (!call) throw new AppError('NOT_FOUND', `no call with id "${id}"`)
  return toCallView(call)
}
