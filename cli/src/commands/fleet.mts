// `toolroom effective-tools`, `toolroom approvals` and `toolroom calls`.
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import { APPROVAL_STATUSES, CALL_OUTCOMES, type components, SIDE_EFFECT_LEVELS } from '../generated/openapi.mjs'
import { nameAndNamespace, resourceParams } from '../kinds.mjs'
import { age, type Format, out, printValue, table } from '../output.mjs'

type EffectiveTool = components['schemas']['EffectiveTool']

type EffectiveSet = components['schemas']['EffectiveToolSet']
type Comparison = components['schemas']['EffectiveToolsComparison']

export async function effectiveTools(
  conn: Connection,
  agent: string,
  options: { namespace?: string; excluded?: boolean; watch?: boolean; notices?: boolean; compare?: string; output: Format },
): Promise<number> {
  if (options.compare !== undefined) return compareTools(conn, agent, options.compare, options)
  if (options.watch) return watchEffectiveTools(conn, agent, options)
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
  printSetTable(set, options.excluded === true)
  return EXIT.ok
}

function printSetTable(set: EffectiveSet, excluded: boolean) {
  const headers = ['name', 'state', 'tier', 'source', 'level', 'approval', ...(excluded ? ['reason'] : [])]
  out(
    table(
      headers,
      [...set.effectiveTools, ...(set.excluded ?? [])].map((t) => rowOf(t, excluded)),
    ),
  )
  for (const u of set.unresolved) out(`unresolved: ${u.field} ${u.reference}: ${u.message}`)
}

function rowOf(t: EffectiveTool, excluded: boolean): (string | null | undefined)[] {
  return [t.name, t.state, t.tier, t.provenance, t.sideEffects.level, t.requiresApproval ? 'required' : 'no', ...(excluded ? [t.reason ?? ''] : [])]
}

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  resourceVersion: string
  object?: EffectiveSet
  /** With `events=notices`: the tag a GET of the set carries at the time of the event (no object). */
  etag?: string | null
}

/**
 * `--watch`: the set, then each change as it happens (the API's `?watch=1` stream), until Ctrl-C or
 * the agent is deleted. A dropped stream is resumed from the last resourceVersion, so nothing is
 * missed and nothing repeated. Tables print the set once and then one line per change; json prints
 * one event per line, yaml one document per event.
 */
async function watchEffectiveTools(
  conn: Connection,
  agent: string,
  options: { namespace?: string; excluded?: boolean; notices?: boolean; output: Format },
): Promise<number> {
  const { path, query } = resourceParams(nameAndNamespace(agent, options.namespace ?? conn.namespace))
  let resourceVersion: string | undefined
  let shown: Map<string, string> | null = null
  const setQuery = { ...query, ...(options.excluded ? { include: 'excluded' as const } : {}) }
  // With --notices a table follows each notice with a GET of the set, conditional on the tag of the
  // one it shows: the answer is the announced set or a newer one, and a 304 means it is already shown.
  let held: { etag: string; set: EffectiveSet } | null = null
  const follow = async (): Promise<EffectiveSet | null> => {
    const answer = await apiClient(conn).GET('/api/v1/agents/{id}/effective-tools', {
      params: { path, query: setQuery },
      headers: held ? { 'if-none-match': held.etag } : {},
    })
    if (answer.response.status === 304 && held) return null
    const set = await unwrap(conn.server, Promise.resolve(answer))
    const etag = answer.response.headers.get('etag')
    held = etag ? { etag, set } : null
    return set
  }
  for (;;) {
    const body = await unwrap(
      conn.server,
      apiClient(conn).GET('/api/v1/agents/{id}/effective-tools', {
        params: {
          path,
          query: {
            ...setQuery,
            watch: '1' as const,
            ...(options.notices ? { events: 'notices' as const } : {}),
            ...(resourceVersion ? { resourceVersion } : {}),
          },
        },
        parseAs: 'stream',
      }),
    )
    for await (const event of serverEvents(body as ReadableStream<Uint8Array>)) {
      resourceVersion = event.resourceVersion
      if (options.output === 'json') out(JSON.stringify(event))
      else if (options.output === 'yaml') printValue(event, 'yaml')
      else if (event.type === 'DELETED') out(`${agent}: deleted`)
      else if (event.object) shown = printChange(event, event.object, shown, options.excluded === true)
      else if (options.notices) {
        const set = await follow()
        if (set) shown = printChange(event, set, shown, options.excluded === true)
      }
      if (event.type === 'DELETED') return EXIT.ok
    }
  }
}

function printChange(event: WatchEvent, set: EffectiveSet, shown: Map<string, string> | null, excluded: boolean): Map<string, string> {
  const now = new Map([...set.effectiveTools, ...(set.excluded ?? [])].map((t) => [t.name, rowOf(t, excluded).join(' ')]))
  if (shown === null) printSetTable(set, excluded)
  else {
    const changes = [
      ...[...now.keys()].filter((n) => !shown.has(n)).map((n) => `+${n}`),
      ...[...shown.keys()].filter((n) => !now.has(n)).map((n) => `-${n}`),
      ...[...now.entries()].filter(([n, row]) => shown.has(n) && shown.get(n) !== row).map(([n]) => `~${n}`),
    ]
    out(`${new Date().toISOString()} ${event.type} ${changes.length ? changes.join(' ') : '(entries unchanged)'}`)
  }
  return now
}

/** The `data:` of each named event of a text/event-stream body. */
async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<WatchEvent> {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n')
      if (data) yield JSON.parse(data) as WatchEvent
    }
  }
}

/**
 * `effective-tools A --compare B` (B an agent, or `unit:NAME` for a unit): what only one can call, why
 * the other cannot, and the fix; exits 0 when both can call the same tools the same way, 1 when not.
 */
async function compareTools(conn: Connection, agent: string, other: string, options: { namespace?: string; output: Format }): Promise<number> {
  const { path, query } = resourceParams(nameAndNamespace(agent, options.namespace ?? conn.namespace))
  const unit = /^unit[:/]/i.exec(other)
  const withRef = nameAndNamespace(unit ? other.slice(unit[0].length) : other, options.namespace ?? conn.namespace)
  if (!withRef.id) throw new UsageError('--compare needs an agent, or unit:NAME for a unit')
  const api = apiClient(conn)
  const answer = await unwrap(
    conn.server,
    api.GET('/api/v1/agents/{id}/compare', {
      params: {
        path,
        query: {
          ...query,
          with: withRef.id,
          withKind: unit ? ('Unit' as const) : ('Agent' as const),
          ...(withRef.namespace ? { withNamespace: withRef.namespace } : {}),
        },
      },
    }),
  )
  const differs = answer.onlyLeft.length + answer.onlyRight.length + answer.differing.length > 0
  if (options.output !== 'table') {
    printValue(answer, options.output)
    return differs ? EXIT.differences : EXIT.ok
  }
  const name = (s: Comparison['left']) => `${s.kind === 'Unit' ? 'unit ' : ''}${s.namespace}/${s.name}`
  const [left, right] = [name(answer.left), name(answer.right)]
  const side = (title: string, items: Comparison['onlyLeft']) => {
    if (items.length === 0) return
    out(`${title} (${items.length}):`)
    out(
      table(
        ['tool', 'source', 'other side', 'why not', 'fix'],
        items.map((d) => [
          d.tool,
          `${d.has.provenance}${d.has.inheritedFromUnit ? ` (unit ${d.has.inheritedFromUnit})` : ''}`,
          d.lacks.state,
          d.lacks.reason,
          d.lacks.fixes.map((f) => f.summary).join('; ') || null,
        ]),
      ),
    )
    out()
  }
  side(`Only ${left} can call`, answer.onlyLeft)
  side(`Only ${right} can call`, answer.onlyRight)
  if (answer.differing.length) {
    out(`Both can call, differently (${answer.differing.length}):`)
    const how = (e: Comparison['differing'][number]['left']) => `${e.provenance}${e.requiresApproval ? ', needs approval' : ''}`
    out(
      table(
        ['tool', left, right],
        answer.differing.map((d) => [d.tool, how(d.left), how(d.right)]),
      ),
    )
    out()
  }
  out(`${answer.same} tool${answer.same === 1 ? '' : 's'} both can call the same way${differs ? '' : '; no differences'}.`)
  if ([...answer.onlyLeft, ...answer.onlyRight].some((d) => d.lacks.fixes.length > 0))
    out('Each fix is a whole manifest to review and apply (toolroom apply -f): -o yaml shows them.')
  return differs ? EXIT.differences : EXIT.ok
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
      ['id', 'status', 'agent', 'tool', 'level', 'requested', 'expires in', 'decided by', 'summary'],
      page.items.map((a) => [
        a.id,
        a.status,
        actingFor(`${a.agent.namespace}/${a.agent.name}`, a.onBehalfOf),
        a.tool.id,
        a.tool.level,
        age(a.requestedAt),
        a.secondsLeft === null ? null : `${Math.ceil(a.secondsLeft / 60)}m`,
        a.decision?.by,
        // Last, so a long line does not push the other columns apart; a Policy's reason says why it waits.
        oneLine([a.summaryLine, ...a.policyRules.map((r) => `[policy ${r.policy}: ${r.reason}]`)].join(' ')),
      ]),
    ),
  )
  if (page.total > page.items.length) out(`${page.total - page.items.length} more (use --limit)`)
  return EXIT.ok
}

type Approval = components['schemas']['Approval']

/** What the server sent, on one line: a value cannot move the cursor or colour the terminal. */
const oneLine = (text: string | null | undefined) => (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')

/** How long from now until `iso`, or that it has passed. */
function untilNow(iso: string): string {
  const minutes = Math.ceil((Date.parse(iso) - Date.now()) / 60_000)
  return minutes > 0 ? `${minutes}m left` : 'passed'
}

/** `toolroom approvals show ID`: what the call will do, why it waits, and who asks. */
export async function showApproval(conn: Connection, id: string, options: { output: Format }): Promise<number> {
  const a: Approval = await unwrap(conn.server, apiClient(conn).GET('/api/v1/approvals/{id}', { params: { path: { id } } }))
  if (options.output !== 'table') {
    printValue(a, options.output)
    return EXIT.ok
  }
  out(oneLine(a.summaryLine))
  if (a.tool.description) out(`  ${oneLine(a.tool.description)}`)
  out()
  const rows: Array<[string, string | null | undefined]> = [
    ['Tool', `${a.tool.id} (${a.tool.level ?? 'no level'})${a.highRisk ? ', high risk' : ''}`],
    ['Agent', actingFor(`${a.agent.namespace}/${a.agent.name}`, a.onBehalfOf)],
    // The person's own token ends before the request does: approved after it, the call fails.
    ['Acts for them until', a.onBehalfOfUntil ? `${a.onBehalfOfUntil} (${untilNow(a.onBehalfOfUntil)}); approved later, the call does not run for them` : null],
    ['Status', a.status === 'pending' && a.secondsLeft !== null ? `pending, expires in ${Math.ceil(a.secondsLeft / 60)}m` : a.status],
    ...a.policyRules.map((r): [string, string] => ['Policy', `${r.reason} (${r.policy}, rule ${r.rule})`]),
    ...a.summary.map((e): [string, string] => [e.label ?? e.field, `${e.value}${e.href ? ` <${e.href}>` : ''}`]),
    ['Requested', `${a.requestedAt} (${age(a.requestedAt)} ago)`],
    ['Decided', a.decision ? `${a.decision.by ?? 'someone'} at ${a.decision.at}${a.decision.comment ? `: ${a.decision.comment}` : ''}` : null],
  ]
  const width = Math.max(...rows.map(([k]) => oneLine(k).length))
  for (const [key, value] of rows) if (value) out(`${oneLine(key).padEnd(width)}   ${oneLine(value)}`)
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

export async function undo(conn: Connection, id: string, options: { output?: Format }): Promise<number> {
  const answer = await unwrap(conn.server, apiClient(conn).POST('/api/v1/approvals/{id}/undo', { params: { path: { id } } }))
  if (options.output && options.output !== 'table') printValue(answer, options.output)
  else out(`${answer.tool.id} for ${answer.agent.namespace}/${answer.agent.name}: ${answer.status} again (decision undone)`)
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
