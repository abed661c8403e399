// Fills ToolCall for the stats benchmark straight in SQL (INSERT … SELECT generate_series, one
// statement per hour so the insert-log trigger runs as it would for gateway batches). The spread:
// 1,000 active agents (a few much busier than most), each calling about 20 of 2,000 tools in 20
// namespaces; ~92% succeed, some tools fail far more often than others, refusals of every kind;
// log-normal-ish latencies from a few ms to seconds, slower on some tools; failures carry four error
// codes and a few messages, a tenth of them unique (a request id in the text), as upstreams write
// them, so the failure view's message breakdown meets its cap. A third of the calls are made for a
// person (each agent acts for 5 of 5,000 people), the rest for nobody. The secondary indexes are
// dropped during the fill and built once after it, which is much faster than maintaining them.

const ACTIVE_AGENTS = 1000
const TOOLS = 2000
const TOOLS_PER_AGENT = 20
const HOURS = 7 * 24
const PEOPLE = 5000

const rowsSql = (count, fromSql, spanSql) => `
  INSERT INTO "ToolCall" ("startedAt", "finishedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", "toolKey",
      provenance, level, channel, outcome, "errorCode", "errorMessage", "latencyMs", attempts, args, result,
      "onBehalfOfIssuer", "onBehalfOfSubject", "onBehalfOfDisplayName")
  SELECT at, at + make_interval(secs => coalesce(latency, 0) / 1000.0), agents[a + 1], 'bench', names[a + 1], units[a + 1],
    'pool' || (t / 100) || '.tool_' || (t % 100), 'pool' || (t / 100), 'Tool/bench/pool' || (t / 100) || '.tool_' || (t % 100), 'grant', 'read_only',
    CASE WHEN r2 < 0.7 THEN 'mcp' WHEN r2 < 0.9 THEN 'rest' ELSE 'ingest' END, outcome,
    CASE WHEN outcome = 'failed' THEN (ARRAY['upstream_status', 'transient', 'upstream_error', 'tool_error'])[1 + i % 4] END,
    CASE WHEN outcome <> 'failed' THEN NULL
         WHEN i % 10 = 0 THEN 'the MCP server answered an error: request ' || i || ' was refused'
         ELSE (ARRAY['the endpoint answered 500 Internal Server Error', 'the endpoint answered 503', 'the MCP server answered an error: quota exceeded'])[1 + i % 3] END,
    CASE WHEN outcome IN ('succeeded', 'failed', 'approved') THEN latency END, 1,
    json_build_object('id', 'rec-' || i, 'limit', 20), CASE WHEN outcome = 'succeeded' THEN '{"ok":true}'::json END,
    CASE WHEN person IS NOT NULL THEN 'https://idp.bench.test' END, 'person-' || person, 'Person ' || person
  FROM (
    SELECT i, at, a, t, r2, r, f,
      -- A third of the calls are made for a person, each agent acting for 5 of 5,000 people.
      CASE WHEN i % 3 = 0 THEN (a * 5 + i % 5) % ${PEOPLE} END AS person,
      CASE WHEN r < f THEN 'failed' WHEN r < f + 0.02 THEN 'denied' WHEN r < f + 0.03 THEN 'rate_limited'
           WHEN r < f + 0.04 THEN 'invalid_arguments' WHEN r < f + 0.05 THEN 'deduplicated' WHEN r < f + 0.055 THEN 'rejected'
           WHEN r < f + 0.06 THEN 'expired' WHEN r < f + 0.07 THEN 'approved' WHEN r < f + 0.075 THEN 'pending_approval'
           ELSE 'succeeded' END AS outcome,
      (exp(ln(3) + random() * ln(400)) * (1 + t % 5))::int AS latency
    FROM (
      SELECT i, ${fromSql} + random() * ${spanSql} AS at, a, (a * 13 + floor(random() * ${TOOLS_PER_AGENT})::int * 97) % ${TOOLS} AS t, random() AS r, random() AS r2
      FROM (SELECT i, floor(power(random(), 2) * ${ACTIVE_AGENTS})::int AS a FROM generate_series(1, ${count}) AS i) AS pick
    ) AS base, LATERAL (SELECT 0.02 + CASE WHEN base.t % 17 = 0 THEN 0.25 ELSE 0 END AS f) AS fail
  ) AS c,
  (SELECT $1::uuid[] AS agents, $2::text[] AS names, $3::text[] AS units) AS fleet`

export async function fillCalls(client, rows, log) {
  const { rows: fleet } = await client.query(`SELECT id, name, unit FROM "Agent" ORDER BY name LIMIT ${ACTIVE_AGENTS}`)
  const params = [fleet.map((a) => a.id), fleet.map((a) => a.name), fleet.map((a) => a.unit)]
  const { rows: indexes } = await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ToolCall' AND indexname <> 'ToolCall_pkey'`)
  for (const ix of indexes) await client.query(`DROP INDEX "${ix.indexname}"`)

  let t0 = performance.now()
  const now = Date.now()
  const perHour = Math.ceil(rows / HOURS)
  let written = 0
  for (let h = HOURS; h >= 1 && written < rows; h--) {
    const count = Math.min(perHour, rows - written)
    const from = new Date(now - h * 3_600_000).toISOString()
    await client.query(rowsSql(count, `'${from}'::timestamptz`, `interval '1 hour'`), params)
    written += count
    if (h % 24 === 0) log(`  ${written.toLocaleString('en')} calls…`)
  }
  const insertSeconds = (performance.now() - t0) / 1000
  t0 = performance.now()
  await client.query(`SET maintenance_work_mem = '512MB'`)
  // The call log is partitioned (docs/design/call-log.md): its indexes read `ON ONLY`, which would build
  // an index of the parent alone; built `ON` the table, each day's partition gets its own.
  for (const ix of indexes) await client.query(ix.indexdef.replace(' ON ONLY ', ' ON '))
  await client.query('ANALYZE "ToolCall"')
  const indexSeconds = (performance.now() - t0) / 1000

  return {
    insertSeconds,
    indexSeconds,
    /** `count` calls of the last minute, a tenth of them reported late with a startedAt days ago. */
    async insertRecent(count) {
      await client.query(rowsSql(Math.round(count * 0.9), `now() - interval '1 minute'`, `interval '1 minute'`), params)
      await client.query(rowsSql(Math.round(count * 0.1), `now() - interval '5 days'`, `interval '4 days'`), params)
    },
    /** `count` calls all reported late: spread over the six days before the last hour, in batches of 100 as agents ingest. */
    async insertLate(count) {
      for (let done = 0; done < count; done += 100)
        await client.query(rowsSql(Math.min(100, count - done), `now() - interval '145 hours'`, `interval '144 hours'`), params)
    },
  }
}
