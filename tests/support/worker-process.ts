// A worker process from its sources (workers/main.ts, the code production runs compiled), started
// for a test and ready: resolved once it says it has taken its queues, so a test's own waits measure
// what it asked the worker to do, never the worker's start (slow on a busy machine).
import { type ChildProcess, spawn } from 'node:child_process'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

export async function startWorkerProcess(env: Record<string, string>, { timeoutMs = 60_000 } = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'workers/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => {
    output += d
    process.stderr.write(`[worker] ${d}`)
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the worker did not say it was ready (a "ready:" line) within ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    )
    const onData = () => {
      if (!/(\[worker\] |"msg":")ready: /.test(output)) return
      clearTimeout(timer)
      child.stdout!.off('data', onData)
      child.off('exit', onExit)
      resolve()
    }
    const onExit = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`the worker exited with ${code} before it was ready:\n${output}`))
    }
    child.stdout!.on('data', onData)
    child.once('exit', onExit)
  })
  return child
}
