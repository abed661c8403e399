// npm run bench:explain — the explainer (POST /api/v1/agents/{id}/explain) and "Agents with this
// tool" (GET /api/v1/tools/{id}/agents) over the 5,000-agent bench fleet, in process: how long one
// explanation takes, and how long listing the agents of a Tool takes by how far it reaches. Prints the
// figures; record them in BENCHMARKS.md. BENCH_POLICIES=<n> explains with n Policies that reach
// every explained call (explain-time.mts); BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of it there.
import os from 'node:os'
import { benchDatabase } from '../fresh-database.mjs'
import { BENCH_SECRET_KEY, runNode as node } from './bench-server.mjs'
import { seedBenchFleet } from './generate-fleet.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const log = (...a) => console.log('[bench]', ...a)
const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
const db = await benchDatabase('toolroom_bench_explain')
try {
  await seedBenchFleet(db.url, log)
  const out = JSON.parse(
    await node(
      [...profile, ...TSX_NODE_ARGS, 'scripts/bench/explain-time.mts'],
      { DATABASE_URL: db.url, TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY, BENCH_POLICIES: process.env.BENCH_POLICIES ?? '0' },
      { capture: true },
    ),
  )
  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log('\n| Agents with this tool | agents reached | first call | then (mean of 5) |\n|---|---|---|---|')
  for (const r of out.withTool) console.log(`| ${r.what} (\`${r.tool}\`) | ${r.agents} | ${r.firstMs} ms | ${r.meanMs} ms |`)
  console.log(
    `\nexplain, in process, ${out.policies} Policies reaching every call: ${out.explain.calls} calls, mean ${out.explain.meanMs} ms, p95 ${out.explain.p95Ms} ms, p99 ${out.explain.p99Ms} ms`,
  )
} finally {
  await db.stop()
}
