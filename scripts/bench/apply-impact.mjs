// npm run bench:apply-impact — dry runs of Apply with their impact on agents over the 5,000-agent
// fleet of bench:effective-tools: manifests that reach one agent, a team, an organisation, and every
// agent (a SideEffectPolicy), each timed through applyManifestText in process (validation, the dry-run
// transaction, the diff and the impact), cold (first run after start) and warm. Prints the figures;
// record them in BENCHMARKS.md.
import os from 'node:os'
import { benchDatabase } from '../fresh-database.mjs'
import { BENCH_SECRET_KEY, runNode } from './bench-server.mjs'
import { FLEET, seedBenchFleet } from './generate-fleet.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const log = (...a) => console.log('[bench]', ...a)

const db = await benchDatabase('toolroom_bench_impact')
try {
  await seedBenchFleet(db.url, log)

  // BENCH_PROFILE=<dir> writes a CPU profile of the dry runs there; BENCH_ONLY=<text> runs the manifests whose title holds it.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const figures = JSON.parse(
    await runNode(
      [...profile, ...TSX_NODE_ARGS, 'scripts/bench/apply-impact-time.mts'],
      { DATABASE_URL: db.url, TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY },
      { capture: true },
    ),
  )
  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log(`Fleet: ${FLEET.agents} agents, ${FLEET.roots * (1 + FLEET.childrenPerRoot)} units, ${FLEET.tools} Tools, ${FLEET.connectors} connectors\n`)
  console.log('Wall time of the whole dry run (and the CPU time of the process in it), first run after start (cold) and the median of three more (warm).\n')
  console.log('| manifest | agents resolved | agents affected | tool changes | cold | warm |\n|---|---|---|---|---|---|')
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`
  for (const f of figures)
    console.log(
      `| ${f.title} | ${f.resolved} | ${f.affected} | ${f.toolChanges}${f.truncated ? ' (listed: cut)' : ''} | ${s(f.coldMs)} (CPU ${s(f.coldCpuMs)}) | ${s(f.warmMs)} (CPU ${s(f.warmCpuMs)}) |`,
    )
} finally {
  await db.stop()
}
