// npm run bench:fleet-recompute — a change that reaches every agent (a platform Tool, a
// SideEffectPolicy) over the 5,000-agent fleet of bench:effective-tools: every agent's answer computed
// again in one web process's path, in process, passes after the change announced. BENCH_REUSE=1 keeps
// the fleet database of the last run (A/B of two commits in the same minutes); BENCH_COMPARE=<dir>
// runs the passes of the checkout in <dir> (e.g. the base commit, `git archive` into it, with
// node_modules and lib/generated beside) at the same time, in a process of its own on the same
// database, so both see the same load of a shared machine; BENCH_PROFILE_DIR=<dir> writes a V8 CPU
// profile of this checkout's passes there. Prints the figures; record them in BENCHMARKS.md.
import { spawn } from 'node:child_process'
import os from 'node:os'
import { benchDatabase } from '../fresh-database.mjs'
import path from 'node:path'
import { BENCH_SECRET_KEY, runNode } from './bench-server.mjs'
import { seedBenchFleet } from './generate-fleet.mjs'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'
import { benchName, reportRows } from './bench-rows.mjs'

const log = (...a) => console.log('[bench]', ...a)
const NAME = 'toolroom_bench_recompute'

/** runNode's capture, in another checkout (its own sources, its own path aliases). */
function runIn(cwd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cwd}: ${args.join(' ')} exited ${code}`))))
  })
}

const db = await benchDatabase(NAME, { reuse: Boolean(process.env.BENCH_REUSE) })
try {
  if (!process.env.BENCH_REUSE) {
    await seedBenchFleet(db.url, log)
  }
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
  const env = { DATABASE_URL: db.url, TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY, TOOLROOM_ANSWER_CACHE_MB: '0' }
  const compare = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : null
  const [passes, compared] = await Promise.all([
    runNode([...profile, ...TSX_NODE_ARGS, 'scripts/bench/fleet-recompute-time.mts'], env, { capture: true }).then(JSON.parse),
    compare ? runIn(compare, [...TSX_NODE_ARGS, 'scripts/bench/fleet-recompute-time.mts'], env).then(JSON.parse) : null,
  ])
  console.log(
    `\nMachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  )
  console.log(
    '| code | pass | agents | wall | CPU of the process | answer bytes (mean) | shared entries kept at the end | RSS at the end |\n|---|---|---|---|---|---|---|---|',
  )
  const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`
  const kept = (k) => (k ? `${k.pieces} pieces of ${k.tools} tools, ${MB(k.bytes)} (budget ${MB(k.budget)})` : '—')
  const rows = (code, list) =>
    list.forEach((p, i) =>
      console.log(
        `| ${code} | ${i + 1} | ${p.agents} | ${(p.wallMs / 1000).toFixed(1)} s | ${(p.cpuMs / 1000).toFixed(1)} s | ${p.meanBytes} | ${kept(p.kept)} | ${MB(p.rss)} |`,
      ),
    )
  rows('this checkout', passes)
  if (compared) rows(compare, compared)
  reportRows(
    benchName('bench:fleet-recompute', ['BENCH_COMPARE']),
    // Issue 28's row: a change to everyone recomputes all 5,000 answers in ≤ 10 s.
    passes.map((p, i) => ({ name: `pass ${i + 1}: ${p.agents} answers, wall`, value: p.wallMs / 1000, unit: 's', better: 'lower', target: 10 })),
  )
} finally {
  await db.stop()
}
