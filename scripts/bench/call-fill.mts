// Calls written straight into the call log for the call-log benchmarks (bench:call-partitions,
// bench:soak): one INSERT … SELECT of `calls` rows with every index and trigger of ToolCall, as the
// gateway's rows look (1,000 agents, 100 tools of 20 pools, one in 50 failed), started from `day`
// and spread evenly over `spreadMs` milliseconds.
export const fillCallsSql = (day: Date, calls: number, spreadMs: number) => `
  INSERT INTO "ToolCall" ("startedAt", "finishedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace", "toolKey",
      provenance, level, channel, outcome, "errorCode", "errorMessage", "latencyMs", attempts, args, result)
  SELECT at, at + interval '40 milliseconds', md5('a' || (i % 1000))::uuid, 'bench', 'agent-' || (i % 1000), 'unit-' || (i % 20),
    'pool' || (i % 20) || '.tool_' || (i % 100), 'pool' || (i % 20), 'Tool/bench/pool' || (i % 20) || '.tool_' || (i % 100), 'grant', 'read_only',
    (ARRAY['mcp', 'rest', 'ingest'])[1 + i % 3], CASE WHEN i % 50 = 0 THEN 'failed' ELSE 'succeeded' END,
    CASE WHEN i % 50 = 0 THEN 'upstream_status' END, CASE WHEN i % 50 = 0 THEN 'the endpoint answered 503' END, 40, 1,
    json_build_object('id', 'rec-' || i, 'limit', 20), '{"ok":true}'::json
  FROM (SELECT i, '${day.toISOString()}'::timestamptz + (i::bigint * ${spreadMs} / ${calls}) * interval '1 millisecond' AS at
          FROM generate_series(1, ${calls}) AS i) AS s`
