// npm run bench:search — the portal's global search (Ctrl-K, GET /api/v1/search) against the bench
// fleet (20,000 Tools, 5,000 Agents, connectors, servers) and BENCH_CALLS calls (default 1 million)
// over 7 days, at 1 connection against the production build: a broad substring, an exact tool id with
// calls, an agent's name, a call id, and a query that matches nothing. For comparison, what the palette
// would otherwise send per keystroke: one list request per kind with ?q=. Record the figures in
// BENCHMARKS.md ("Global search").
import os from 'node:os'
import pg from 'pg'
import { benchDatabase } from '../fresh-database.mjs'
import { AUTH_HEADERS, ensureBenchToken } from './bench-auth.mjs'
import { oneClientLoad } from './one-client-load.mjs'
import { BENCH_SECRET_KEY, startBenchServer } from './bench-server.mjs'
import { generateFleet } from './generate-fleet.mjs'
import { fillCalls } from './stats-fill.mjs'

const PORT = process.env.BENCH_PORT ?? '4141'
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const ROWS = Number(process.env.BENCH_CALLS ?? 1_000_000)
const base = `http://127.0.0.1:${PORT}`
const log = (...a) => console.log('[bench]', ...a)
const LIST_KINDS = ['agents', 'tools', 'units', 'languagetools', 'connectors', 'secrets']

const load = (title, paths) => oneClientLoad(base, title, paths, DURATION)

const db = await benchDatabase('toolroom_bench_search')
let server
try {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  await generateFleet(client)
  await fillCalls(client, ROWS, log)
  await client.query('ANALYZE')
  const {
    rows: [busy],
  } = await client.query(`SELECT "toolId" FROM "ToolCall" GROUP BY "toolId" ORDER BY count(*) DESC LIMIT 1`)
  const {
    rows: [agent],
  } = await client.query(`SELECT "agentName" FROM "ToolCall" GROUP BY "agentName" ORDER BY count(*) DESC LIMIT 1`)
  const {
    rows: [oneCall],
  } = await client.query(`SELECT id FROM "ToolCall" ORDER BY "startedAt" DESC LIMIT 1`)
  const {
    rows: [size],
  } = await client.query(`SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = '"ToolCall"'::regclass`)
  await client.end()

  await ensureBenchToken(db.url, BENCH_SECRET_KEY)
  server = (await startBenchServer({ port: PORT, databaseUrl: db.url, log })).child
  const queries = {
    'a broad substring ("tool_4")': 'tool_4',
    [`an exact tool id with calls (${busy.toolId})`]: busy.toolId,
    [`an agent's name (${agent.agentName})`]: agent.agentName,
    'a call id': oneCall.id,
    'nothing matches': 'zz-no-such-thing',
  }
  const results = []
  for (const [title, q] of Object.entries(queries)) {
    const path = `/api/v1/search?q=${encodeURIComponent(q)}`
    const res = await fetch(`${base}${path}`, { headers: AUTH_HEADERS })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    results.push(await load(`search: ${title}`, [path]))
  }
  results.push(
    await load(
      'six list requests with ?q=tool_4 (no approvals, no calls)',
      LIST_KINDS.map((k) => `/api/v1/${k}?q=tool_4&limit=5`),
    ),
  )

  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; 1 connection × ${DURATION} s each`,
  )
  console.log(`Data: the bench fleet and ${ROWS.toLocaleString('en')} calls over 7 days (ToolCall ${size.size})\n`)
  console.log('| what | HTTP requests | answers/s | p50 per request | p99 per request |\n|---|---|---|---|---|')
  for (const r of results) console.log(`| ${r.title} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms |`)
} finally {
  server?.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 500))
  await db.stop()
}
