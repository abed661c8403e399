// `toolroom effective-tools`, `toolroom approvals` and `toolroom calls`.
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import { APPROVAL_STATUSES, CALL_OUTCOMES, type components, SIDE_EFFECT_LEVELS } from '../generated/openapi.mjs'
import { nameAndNamespace, resourceParams } from '../kinds.mjs'
import { age, type Format, out, printValue, table } from '../output.mjs'

type EffectiveTool = components['schemas']['EffectiveTool']

export async function effectiveTools(conn: Connection, agent: string, options: { namespace?: string; excluded?: boolean; output: Format }): Promise<number> {
  const { path, query } = resourceParams(nameAndNamespace(agent, options.namespace ?? conn.namespace))
  const api = apiClient(conn)
  const set = await unwrap(
    conn.server,
    api.GET('/api/v1/agents/{id}/effective-tools', { params: { path, query: { ...query, ...(options.excluded ? { include: 'excluded' as const } : {}) } } }),
  )
  if (options.output !== 'table') {
    printValue(set, options.output)
    return EXIT.ok
  }
  const row = (t: EffectiveTool) => [
    t.name,
    t.state,
    t.tier,
    t.provenance,
    t.sideEffects.level,
    t.requiresApproval ? 'required' : 'no',
    ...(options.excluded ? [t.reason ?? ''] : []),
  ]
  const headers = ['name', 'state', 'tier', 'source', 'level', 'approval', ...(options.excluded ? ['reason'] : [])]
  out(table(headers, [...set.effectiveTools, ...(set.excluded ?? [])].map(row)))
  for (const u of set.unresolved) out(`unresolved: ${u.field} ${u.reference}: ${u.message}`)
  return EXIT.ok
}

export async function listApprovals(conn: Connection, options: { status?: string; level?: string; limit?: string; output: Format }): Promise<number> {
  const api = apiClient(conn)
  const page = await unwrap(
    conn.server,
    api.GET('/api/v1/approvals', {
      params: {
        query: {
          ...(options.status ? { status: oneOf(options.status, APPROVAL_STATUSES, '--status') } : {}),
          ...(options.level ? { level: oneOf(options.level, SIDE_EFFECT_LEVELS, '--level') } : {}),
          ...(options.limit ? { limit: positive(options.limit, '--limit') } : {}),
        },
      },
    }),
  )
  if (options.output !== 'table') {
    printValue(page, options.output)
    return EXIT.ok
  }
  out(
    table(
      ['id', 'status', 'agent', 'tool', 'level', 'requested', 'expires in', 'decided by'],
      page.items.map((a) => [
        a.id,
        a.status,
        actingFor(`${a.agent.namespace}/${a.agent.name}`, a.onBehalfOf),
        a.tool.id,
        a.tool.level,
        age(a.requestedAt),
        a.secondsLeft === null ? null : `${Math.ceil(a.secondsLeft / 60)}m`,
        a.decision?.by,
      ]),
    ),
  )
  if (page.total > page.items.length) out(`${page.total - page.items.length} more (use --limit)`)
  return EXIT.ok
}

export async function decide(conn: Connection, decision: 'approve' | 'deny', id: string, options: { comment?: string; output?: Format }): Promise<number> {
  const api = apiClient(conn)
  const request = { params: { path: { id } }, body: options.comment ? { comment: options.comment } : {} }
  const answer = await unwrap(
    conn.server,
    decision === 'approve' ? api.POST('/api/v1/approvals/{id}/approve', request) : api.POST('/api/v1/approvals/{id}/deny', request),
  )
  if (options.output && options.output !== 'table') printValue(answer, options.output)
  else
    out(
      `${answer.tool.id} for ${answer.agent.namespace}/${answer.agent.name}${answer.onBehalfOf ? ` acting for ${answer.onBehalfOf.displayName}` : ''}: ${answer.status}`,
    )
  return EXIT.ok
}

export async function calls(
  conn: Connection,
  options: { agent?: string; namespace?: string; tool?: string; outcome?: string; limit?: string; output: Format },
): Promise<number> {
  const api = apiClient(conn)
  let agentId: string | undefined
  if (options.agent) {
    const ref = nameAndNamespace(options.agent, options.namespace ?? conn.namespace)
    agentId = (await unwrap(conn.server, api.GET('/api/v1/agents/{id}', { params: resourceParams(ref) }))).id
  }
  const page = await unwrap(
    conn.server,
    api.GET('/api/v1/calls', {
      params: {
        query: {
          ...(agentId ? { agentId } : {}),
          ...(options.tool ? { tool: options.tool } : {}),
          ...(options.outcome ? { outcome: oneOf(options.outcome, CALL_OUTCOMES, '--outcome') } : {}),
          ...(options.limit ? { limit: positive(options.limit, '--limit') } : {}),
        },
      },
    }),
  )
  if (options.output !== 'table') {
    printValue(page, options.output)
    return EXIT.ok
  }
  out(
    table(
      ['started', 'agent', 'tool', 'outcome', 'latency', 'channel', 'error'],
      page.items.map((c) => [
        c.startedAt,
        actingFor(`${c.agentNamespace}/${c.agentName}`, c.onBehalfOf),
        c.toolId,
        c.outcome,
        c.latencyMs === null ? null : `${c.latencyMs}ms`,
        c.channel,
        c.errorMessage?.slice(0, 80),
      ]),
    ),
  )
  return EXIT.ok
}

/** "finance/ap-clerk for Jane Doe": the agent, and the person it acted for if any. */
function actingFor(agent: string, person: { displayName: string } | null | undefined): string {
  return person ? `${agent} for ${person.displayName}` : agent
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} is one of ${allowed.join(', ')}, not "${value}"`)
  return value as T
}

function positive(value: string, flag: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number above 0, not "${value}"`)
  return n
}
