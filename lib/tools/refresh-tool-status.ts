// Keeps every Tool's observed status current (README, "Tool status"): gathers what its conditions
// depend on (its Secret, its OAuth credential's last token request, its MCP server, the outbound policy's verdict on its endpoint, its recent
// calls), works them out (lib/tools/tool-conditions.ts) and writes the phase and conditions of the
// tools whose status changed, in one statement. Called after whatever a status depends on changes:
// apply and REST writes of Tools, Secrets and LanguageTools, secret rotation, discovery runs, the
// statistics rollup, and every worker's start and discovery sweep (which also catch DNS changes).
import 'server-only'
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { AddressPolicy } from '@/lib/net/address-policy'
import { checkTarget, resolvedRefusal } from '@/lib/outbound/guard'
import { outboundPolicy } from '@/lib/outbound/outbound-clients'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { scopeOf } from '@/lib/net/url-template'
import { toolResourceStatKey } from '@/lib/stats/tool-stat-key'
import { toolResourceStatKeySql } from '@/lib/stats/tool-stat-key-sql'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { upstreamTokenKey } from '@/lib/upstream-auth/upstream-token-key'
import type { Kysely } from 'kysely'
import { db, lockForTransaction, sql, sqlIn, type Tables } from '@/lib/sql'
import {
  type EndpointFact,
  observeToolConditions,
  phaseOf,
  RECENT_HOURS,
  sameConditions,
  type SecretFact,
  type ServerFact,
  type TokenFact,
  type ToolCondition,
  upstreamToolName,
  withTransitionTimes,
} from './tool-conditions'

interface Ref {
  namespace: string
  name: string
}

/** Which tools to look at: all of them, or those that are, or depend on, the named resources. */
export type ToolStatusScope =
  | { all: true }
  | {
      tools?: Ref[]
      secrets?: Ref[]
      languageTools?: Ref[]
      toolStatKeys?: string[]
      degraded?: boolean
      /** Every REST tool with an `oauth2` credential: after a token request's outcome changed. */
      oauth2?: boolean
    }

interface ToolRow {
  id: string
  namespace: string
  name: string
  spec: ToolSpec
  phase: string
  conditions: ToolCondition[]
}

const DNS_TIMEOUT_MS = 2_000
// Refreshes take turns, so the last to write read the latest state.
const LOCK = 'toolroom.tool-status'

/** After an upstream token's outcome changed (lib/upstream-auth): the `TokenIssued` conditions follow it; a failure here waits for the next sweep. */
export async function refreshOAuthToolStatus(): Promise<void> {
  try {
    await refreshToolStatus({ oauth2: true })
  } catch (e) {
    console.error('[upstream-token] tool status refresh failed; the next sweep retries:', (e as Error).message)
  }
}

export async function refreshToolStatus(scope: ToolStatusScope, now: Date = new Date()): Promise<{ checked: number; changed: number }> {
  const first = await selectTools(db, scope)
  // Nothing depends on what changed (most discovery runs): no transaction, no lock.
  if (first.length === 0) return { checked: 0, changed: 0 }
  // Host names are resolved first, outside the transaction (DNS can take a while).
  const endpoints = await endpointVerdicts(first.filter((t) => t.spec.type === 'rest'))
  const changed = await prisma.$transaction(async (tx) => {
    await lockForTransaction(tx, LOCK)
    const inTx = sqlIn(tx)
    const tools = await selectTools(inTx, scope)
    if (tools.length === 0) return { checked: 0, changed: 0 }
    const late = tools.filter((t) => t.spec.type === 'rest' && !endpoints.has(t.spec.endpoint!.url))
    for (const [url, verdict] of await endpointVerdicts(late)) endpoints.set(url, verdict)
    const [secrets, servers, tokens, recent] = await Promise.all([
      secretFacts(inTx, tools),
      serverFacts(inTx, tools),
      tokenFacts(inTx, tools),
      recentCalls(inTx, tools, now),
    ])
    const osToolsEnabled = config().TOOLROOM_ENABLE_OS_TOOLS
    const updates: { id: string; phase: string; conditions: ToolCondition[] }[] = []
    for (const tool of tools) {
      const observed = observeToolConditions({
        namespace: tool.namespace,
        name: tool.name,
        spec: tool.spec,
        secret: secrets.get(tool.id),
        token: tokens.get(tool.id),
        server: servers.get(tool.id),
        endpoint: tool.spec.type === 'rest' ? endpoints.get(tool.spec.endpoint!.url) : undefined,
        osToolsEnabled,
        recent: recent.get(tool.id) ?? { calls: 0, failures: 0 },
      })
      const previous = Array.isArray(tool.conditions) ? tool.conditions : []
      const conditions = withTransitionTimes(observed, previous, now)
      const phase = phaseOf(conditions)
      if (phase !== tool.phase || !sameConditions(conditions, previous)) updates.push({ id: tool.id, phase, conditions })
    }
    // The statement fires the registry notification (cached effective sets show tools' phases), so
    // it runs only when something changed.
    if (updates.length > 0) {
      const updated = sql<{ id: string; phase: string; conditions: string }>`unnest(${updates.map((u) => u.id)}::uuid[], ${updates.map((u) => u.phase)}::text[],
        ${updates.map((u) => JSON.stringify(u.conditions))}::text[])`.as<'u'>(sql`u(id, phase, conditions)`)
      await inTx
        .updateTable('Tool as t')
        .from(updated)
        .set((eb) => ({ phase: eb.ref('u.phase'), conditions: sql`${eb.ref('u.conditions')}::jsonb` }))
        .whereRef('t.id', '=', 'u.id')
        .execute()
    }
    return { checked: tools.length, changed: updates.length }
  })
  if (changed.changed > 0) noteRegistryChange()
  return changed
}

type Db = Kysely<Tables>

/**
 * After a statistics rollup: the tools called recently (their failure rate may have moved) and those
 * not Ready (a failure rate that left the window clears).
 */
export async function refreshRecentlyCalledTools(now: Date = new Date()): Promise<{ checked: number; changed: number }> {
  const rows = await db
    .selectFrom('CallStatHourly')
    .select('key')
    .distinct()
    .where('dimension', '=', 'tool')
    .where('key', 'like', 'Tool/%')
    .where('hour', '>=', recentWindowStart(now))
    .execute()
  return refreshToolStatus({ toolStatKeys: rows.map((r) => r.key), degraded: true }, now)
}

const recentWindowStart = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (RECENT_HOURS - 1) * 3_600_000)

/**
 * After committed writes: refreshes the tools that are, or depend on, the resources written. The
 * writes stand whatever happens here (the next sweep repairs a status this could not write).
 */
export async function refreshToolStatusAfter(written: { kind: string; namespace: string; name: string }[]): Promise<void> {
  const of = (kind: string) => written.filter((w) => w.kind === kind).map(({ namespace, name }) => ({ namespace, name }))
  const scope = { tools: of('Tool'), secrets: of('Secret'), languageTools: of('LanguageTool') }
  if (!scope.tools.length && !scope.secrets.length && !scope.languageTools.length) return
  try {
    await refreshToolStatus(scope)
  } catch (e) {
    console.error('[tool-status] refresh after a write failed; the next sweep retries:', (e as Error).message)
  }
}

/** Pairs of names as a set-returning FROM item `r(namespace, name)`, for `(a, b) IN (…)`. */
const refPairs = (refs: Ref[]) => sql<Ref>`unnest(${refs.map((r) => r.namespace)}::text[], ${refs.map((r) => r.name)}::text[])`.as<'r'>(sql`r(namespace, name)`)

async function selectTools(db: Db, scope: ToolStatusScope): Promise<ToolRow[]> {
  const rows = db
    .selectFrom('Tool as t')
    .select(['t.id', 't.namespace', 't.name', 't.spec', 't.phase', 't.conditions'])
    .$narrowType<{ spec: ToolSpec; conditions: ToolCondition[] }>()
  if ('all' in scope) return rows.execute()
  const tools = scope.tools ?? []
  const secrets = scope.secrets ?? []
  const servers = scope.languageTools ?? []
  const keys = scope.toolStatKeys ?? []
  if (!tools.length && !secrets.length && !servers.length && !keys.length && !scope.degraded && !scope.oauth2) return []
  return rows
    .where((eb) => {
      const spec = eb.ref('t.spec')
      // A REST tool's Secret: its secretRef, or its OAuth client's secret.
      const secretRefName = sql<string>`coalesce(${spec}->'endpoint'->'auth'->'secretRef'->>'name', ${spec}->'endpoint'->'auth'->'oauth2'->'clientSecretRef'->>'name')`
      const serverRefName = sql<string>`${spec}->'mcpServerRef'->>'name'`
      const namePairs = (refs: Ref[]) => eb.selectFrom(refPairs(refs)).select(['r.namespace', 'r.name']).$asTuple('namespace', 'name')
      // A reference is `name` (the Tool's namespace) or `namespace/name`; both forms are matched.
      return eb.or([
        eb(eb.refTuple('t.namespace', 't.name'), 'in', namePairs(tools)),
        eb.and([
          eb('t.type', '=', 'rest'),
          eb(
            eb.tuple(eb.ref('t.namespace'), sql<string>`coalesce(nullif(split_part(${secretRefName}, '/', 2), ''), ${secretRefName})`),
            'in',
            namePairs(secrets),
          ),
        ]),
        eb.and([eb.val(scope.oauth2 ?? false), eb('t.type', '=', 'rest'), eb(sql<string>`${spec}->'endpoint'->'auth'->>'type'`, '=', 'oauth2')]),
        eb.and([
          eb('t.type', '=', 'mcp'),
          eb(
            sql<string>`(CASE WHEN strpos(${serverRefName}, '/') > 0 THEN ${serverRefName} ELSE ${eb.ref('t.namespace')} || '/' || (${serverRefName}) END)`,
            '=',
            eb.fn.any(sql<string[]>`${servers.map((r) => `${r.namespace}/${r.name}`)}::text[]`),
          ),
        ]),
        eb(toolResourceStatKeySql(eb.ref('t.namespace'), eb.ref('t.name')), '=', eb.fn.any(sql<string[]>`${keys}::text[]`)),
        eb.and([eb.val(scope.degraded ?? false), eb('t.phase', '<>', 'Ready')]),
      ])
    })
    .execute()
}

async function secretFacts(db: Db, tools: ToolRow[]): Promise<Map<string, SecretFact>> {
  const wanted = new Map<string, Ref>()
  for (const tool of tools) {
    const auth = tool.spec.type === 'rest' ? tool.spec.endpoint?.auth : undefined
    const ref = auth?.type === 'oauth2' ? auth.oauth2?.clientSecretRef.name : auth?.secretRef?.name
    // Only the Tool's own namespace is looked in: a reference elsewhere is a condition of its own.
    if (ref && (!ref.includes('/') || ref.startsWith(`${tool.namespace}/`)))
      wanted.set(tool.id, { namespace: tool.namespace, name: ref.slice(ref.indexOf('/') + 1) })
  }
  if (wanted.size === 0) return new Map()
  const refs = [...wanted.values()]
  const rows = await db
    .selectFrom('Secret as s')
    .select(['s.namespace', 's.name', 's.spec'])
    .$narrowType<{ spec: { keys?: string[] } }>()
    .where((eb) =>
      eb(eb.refTuple('s.namespace', 's.name'), 'in', eb.selectFrom(refPairs(refs)).select(['r.namespace', 'r.name']).$asTuple('namespace', 'name')),
    )
    .execute()
  const found = new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r.spec.keys ?? []]))
  return new Map(
    [...wanted].map(([id, ref]) => {
      const keys = found.get(`${ref.namespace}/${ref.name}`)
      return [id, keys ? { found: true, keys } : { found: false }]
    }),
  )
}

async function tokenFacts(db: Db, tools: ToolRow[]): Promise<Map<string, TokenFact>> {
  const keyOf = new Map<string, string>()
  for (const tool of tools) {
    const auth = tool.spec.type === 'rest' ? tool.spec.endpoint?.auth : undefined
    if (auth?.type === 'oauth2' && auth.oauth2) keyOf.set(tool.id, upstreamTokenKey(tool.namespace, auth.oauth2))
  }
  if (keyOf.size === 0) return new Map()
  // A token_exchange credential's tokens are per person (`<key>:<person>`): its last outcome, whoever it was for, is the tool's.
  const credentialKey = sql<string>`split_part(${sql.ref('key')}, ':', 1)`
  const rows = await db
    .selectFrom('UpstreamToken')
    .distinctOn(credentialKey)
    .select([credentialKey.as('key'), 'error', 'errorDescription'])
    .where((eb) => eb(credentialKey, '=', eb.fn.any(sql<string[]>`${[...new Set(keyOf.values())]}::text[]`)))
    .orderBy(credentialKey)
    .orderBy('updatedAt', 'desc')
    .execute()
  const byKey = new Map(rows.map((r) => [r.key, r]))
  const facts = new Map<string, TokenFact>()
  for (const [id, key] of keyOf) {
    const row = byKey.get(key)
    if (row) facts.set(id, row.error ? { issued: false, error: row.error, description: row.errorDescription } : { issued: true })
  }
  return facts
}

async function serverFacts(db: Db, tools: ToolRow[]): Promise<Map<string, ServerFact>> {
  const refOf = new Map<string, string>()
  for (const tool of tools) {
    const ref = tool.spec.type === 'mcp' ? tool.spec.mcpServerRef?.name : undefined
    if (ref) refOf.set(tool.id, ref.includes('/') ? ref : `${tool.namespace}/${ref}`)
  }
  if (refOf.size === 0) return new Map()
  const rows = await db
    .selectFrom('LanguageTool as s')
    .select((eb) => {
      const ref = sql<string>`${eb.ref('s.namespace')} || '/' || ${eb.ref('s.name')}`
      return [
        ref.as('ref'),
        's.phase',
        's.lastError',
        sql<string[] | null>`(SELECT array_agg(e->>'name') FROM json_array_elements(${eb.ref('s.toolSchemas')}) e)`.as('tools'),
      ]
    })
    .where((eb) =>
      eb(sql<string>`${eb.ref('s.namespace')} || '/' || ${eb.ref('s.name')}`, '=', eb.fn.any(sql<string[]>`${[...new Set(refOf.values())]}::text[]`)),
    )
    .execute()
  const byRef = new Map(rows.map((r) => [r.ref, r]))
  const facts = new Map<string, ServerFact>()
  for (const tool of tools) {
    const ref = refOf.get(tool.id)
    if (!ref) continue
    const row = byRef.get(ref)
    const upstreamTool = upstreamToolName(tool.spec, tool.name)
    facts.set(
      tool.id,
      row ? { found: true, phase: row.phase, lastError: row.lastError, listsTool: (row.tools ?? []).includes(upstreamTool), upstreamTool } : { found: false },
    )
  }
  return facts
}

async function recentCalls(db: Db, tools: ToolRow[], now: Date): Promise<Map<string, { calls: number; failures: number }>> {
  const keyOf = new Map(tools.map((t) => [toolResourceStatKey(t.namespace, t.name), t.id]))
  const rows = await db
    .selectFrom('CallStatHourly')
    .select((eb) => ['key', eb.cast<number>(eb.fn.sum('calls'), 'integer').as('calls'), eb.cast<number>(eb.fn.sum('failures'), 'integer').as('failures')])
    .where('dimension', '=', 'tool')
    .where((eb) => eb('key', '=', eb.fn.any(sql<string[]>`${[...keyOf.keys()]}::text[]`)))
    .where('hour', '>=', recentWindowStart(now))
    .groupBy('key')
    .execute()
  return new Map(rows.map((r) => [keyOf.get(r.key)!, { calls: r.calls, failures: r.failures }]))
}

// Verdicts are remembered for a minute: the statistics rollup refreshes every active tool each
// minute, and DNS needs asking no more often than that.
const VERDICT_TTL_MS = 60_000
const verdicts = new Map<string, { fact: EndpointFact; at: number }>()

/** The outbound policy's verdict on each REST endpoint's host, as the gateway would judge it when calling. */
async function endpointVerdicts(tools: ToolRow[]): Promise<Map<string, EndpointFact>> {
  const urls = [...new Set(tools.map((t) => t.spec.endpoint!.url))]
  return new Map(await Promise.all(urls.map(async (url) => [url, await endpointVerdict(url)] as const)))
}

/**
 * The outbound policy's verdict on the host of one URL (a REST tool's endpoint, an MCP server's
 * address): what the status refresh and an apply's dry run (lib/manifests/foresee-failures.ts) say.
 */
export async function endpointVerdict(url: string): Promise<EndpointFact> {
  const now = Date.now()
  if (verdicts.size > 10_000) verdicts.clear()
  const known = verdicts.get(url)
  if (known && now - known.at < VERDICT_TTL_MS) return known.fact
  const fact = await verdictFor(url, outboundPolicy())
  verdicts.set(url, { fact, at: now })
  return fact
}

// The checks are the outbound guard's own (lib/outbound/guard.ts), so this verdict cannot drift from
// what the gateway does when it connects.
async function verdictFor(url: string, policy: AddressPolicy): Promise<EndpointFact> {
  let target: URL
  try {
    target = new URL(scopeOf(url).origin)
    checkTarget(target, policy)
  } catch (e) {
    return { allowed: false, why: (e as Error).message }
  }
  const host = target.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host)) return { allowed: true, how: `${host} is in the outbound allow-list (${policy.describe()})` }
  const addresses = await resolve(host)
  // Only a definite "no such name" fails the tool; a DNS server that did not answer says nothing.
  if (addresses === 'ENOTFOUND' || addresses === 'ENODATA') return { unresolved: `${host} does not resolve here (${addresses}), so calls cannot reach it` }
  if (typeof addresses === 'string') return { unknown: `${host} could not be looked up just now (${addresses}); the next check tries again` }
  const refused = resolvedRefusal(host, addresses, policy)
  if (refused) return { allowed: false, why: refused.message }
  const how = policy.allowsHostName(host) ? 'is allowed by name by' : 'is in the allow-list of'
  return { allowed: true, how: `${host} (${addresses.join(', ')}) ${how} the outbound policy (${policy.describe()})` }
}

async function resolve(host: string): Promise<string[] | string> {
  let timer: NodeJS.Timeout | undefined
  try {
    const answers = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), DNS_TIMEOUT_MS))),
    ])
    return answers.map((a) => a.address)
  } catch (e) {
    return (e as { code?: string }).code ?? (e as Error).message
  } finally {
    clearTimeout(timer)
  }
}
