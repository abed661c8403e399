// The production web server for benchmarks: built when a source changed since the last build,
// started with `next start` on the benchmark's database, and ready once /api/health answers.
import { spawn } from 'node:child_process'
import { needsBuild, recordBuild } from '../start-helpers.mjs'

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

/** Starts the portal on 127.0.0.1:`port`; returns its base URL and the child process (the caller stops it). */
export async function startBenchServer({ port, databaseUrl, log, env = {} }) {
  if (needsBuild()) {
    log('building…')
    await runNode(['node_modules/next/dist/bin/next', 'build'])
    recordBuild()
  }
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production', TOOLROOM_SECRET_KEY: BENCH_SECRET_KEY, ...env },
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode} before answering ${base}/api/health`)
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, child }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGTERM')
  throw new Error(`next start did not answer ${base}/api/health within 60 s`)
}
