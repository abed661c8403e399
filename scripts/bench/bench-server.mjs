// The production server for benchmarks: built when a source changed since the last build, started
// as npm start runs it on the benchmark's database, and ready once /api/health answers.
import { spawn } from 'node:child_process'
import { buildForProduction, portalAnswers, startProductionStack, waitForStack } from '../production-stack.mjs'

/** The benchmarks' fixed secret key (their databases are thrown away). */
export const BENCH_SECRET_KEY = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

/** Runs `node args…` to completion; resolves with its stdout when `capture` is set. */
export function runNode(args, env = {}, { capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], env: { ...process.env, ...env } })
    let out = ''
    child.stdout?.on('data', (d) => (out += d))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`))))
  })
}

/**
 * Starts the web app as production runs it (scripts/production-stack.mjs) on 127.0.0.1:`port`, the
 * benchmark's database, without the gateway in front (the portal's own figures, one hop as before);
 * returns its base URL and the web process (the caller stops it).
 */
export async function startBenchServer({ port, databaseUrl, log, env = {} }) {
  await buildForProduction({ log })
  const stack = await startProductionStack({ port, front: false, env: { DATABASE_URL: databaseUrl, TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY, ...env } })
  try {
    await waitForStack(stack, portalAnswers(stack), { timeoutMs: 60_000 })
  } catch (error) {
    await stack.stop()
    throw error
  }
  return { base: stack.base, child: stack.children[0].child }
}
