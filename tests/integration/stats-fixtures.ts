// ToolCall rows as the gateway writes them, generated in SQL: a deterministic spread over agents,
// units, tools in several namespaces, outcomes and latencies (log-normal-ish, with a slow tail).
import { prisma } from '@/lib/db'

export const FIXTURE_AGENTS = [
  '0a000000-0000-4000-8000-000000000001',
  '0a000000-0000-4000-8000-000000000002',
  '0a000000-0000-4000-8000-000000000003',
  '0a000000-0000-4000-8000-000000000004',
]

export interface CallSpec {
  count: number
  /** Spread startedAt over the last this many hours; or put every call at `at`. */
  withinHours?: number
  at?: Date
  tool?: string
  /** The resolved tool (ToolCall.toolKey); by default the Tool of that name in namespace ops. */
  toolKey?: string | null
  outcome?: string
  agentId?: string
  channel?: string
  args?: unknown
  /** Make a quarter of the calls for one of five people of one issuer (the rest for nobody). */
  forPeople?: boolean
}

let batch = 0

/** Inserts calls (one statement, as a gateway batch would) and returns their ids. */
export async function insertCalls(spec: CallSpec): Promise<string[]> {
  batch++
  // The days' partitions, as the gateway's writer creates them for a day it finds none for (the
  // migration creates 8 days back and 7 ahead; docs/design/call-log.md).
  const last = spec.at ?? new Date()
  const first = spec.at ?? new Date(Date.now() - (spec.withinHours ?? 1) * 3_600_000)
  await prisma.$queryRawUnsafe(
    `SELECT toolroom_call_partition(d::date) FROM generate_series(($1::timestamptz AT TIME ZONE 'UTC')::date, ($2::timestamptz AT TIME ZONE 'UTC')::date, interval '1 day') AS d`,
    first,
    last,
  )
  const rows = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
    `INSERT INTO "ToolCall" ("startedAt", "finishedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", "toolKey",
        provenance, level, channel, outcome, "errorCode", "errorMessage", "latencyMs", attempts, args, result,
        "onBehalfOfIssuer", "onBehalfOfSubject", "onBehalfOfDisplayName")
     SELECT s.at, s.at + make_interval(secs => s.latency / 1000.0), s.agent, 'ops', 'agent-' || right(s.agent::text, 1),
       CASE WHEN s.h % 3 = 0 THEN NULL ELSE 'unit' || (s.h % 3) END,
       s.tool, split_part(s.tool, '.', 1), CASE WHEN $10 THEN coalesce($11, 'Tool/ops/' || s.tool) END, 'grant', 'read_only', coalesce($6, (ARRAY['mcp','rest','ingest'])[1 + s.h % 3]),
       s.outcome, CASE WHEN s.outcome = 'failed' THEN 'UPSTREAM_ERROR' END, CASE WHEN s.outcome = 'failed' THEN 'upstream answered 502' END,
       CASE WHEN s.outcome IN ('succeeded', 'failed', 'approved') THEN s.latency END, 1,
       coalesce($7::json, json_build_object('query', 'q' || s.i, 'token', '[REDACTED]')), json_build_object('ok', s.outcome = 'succeeded'),
       CASE WHEN s.person IS NOT NULL THEN 'https://idp.fixture.test' END, 'person-' || s.person, 'Person ' || s.person
     FROM (
       SELECT i, abs(hashtext($8 || ':' || i)) AS h,
         coalesce($2::timestamptz, now() - (abs(hashtext('t' || $8 || ':' || i)) % ($1::int * 3600000)) * interval '1 millisecond') AS at,
         coalesce($3, 'gen' || chr(97 + abs(hashtext('n' || i)) % 3) || '.t' || (abs(hashtext('k' || $8 || i)) % 12)) AS tool,
         coalesce($4, (ARRAY['succeeded','succeeded','succeeded','succeeded','succeeded','failed','denied','rate_limited','invalid_arguments','deduplicated','pending_approval','approved','rejected','expired'])[1 + abs(hashtext('o' || $8 || i)) % 14]) AS outcome,
         coalesce($5::uuid, (ARRAY[${FIXTURE_AGENTS.map((a) => `'${a}'::uuid`).join(',')}])[1 + abs(hashtext('a' || $8 || i)) % ${FIXTURE_AGENTS.length}]) AS agent,
         (exp(ln(5) + (abs(hashtext('l' || $8 || i)) % 1000) / 1000.0 * ln(4000)))::int AS latency,
         CASE WHEN $12 AND abs(hashtext('p' || $8 || i)) % 4 = 0 THEN abs(hashtext('q' || $8 || i)) % 5 END AS person
       FROM generate_series(1, $9::int) AS i
     ) AS s
     RETURNING id`,
    spec.withinHours ?? 1,
    spec.at ?? null,
    spec.tool ?? null,
    spec.outcome ?? null,
    spec.agentId ?? null,
    spec.channel ?? null,
    spec.args === undefined ? null : JSON.stringify(spec.args),
    String(batch),
    spec.count,
    spec.toolKey !== null,
    spec.toolKey ?? null,
    spec.forPeople ?? false,
  )
  return rows.map((r) => r.id)
}

export async function resetCalls() {
  await prisma.$executeRawUnsafe(`DELETE FROM "ToolCall"`)
  await prisma.$executeRawUnsafe(
    `TRUNCATE "CallStatHourly", "CallStatToolHourly", "CallStatPersonHourly", "CallStatDirtyHour", "CallStatInsertLog", "CallStat7d"`,
  )
}
