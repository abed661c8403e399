import type { ChildProcess } from 'node:child_process'

export declare const BENCH_SECRET_KEY: string
export declare function runNode(args: string[], env?: Record<string, string>, options?: { capture?: boolean }): Promise<string>
export declare function startBenchServer(options: {
  port: number | string
  databaseUrl: string
  log: (...args: unknown[]) => void
  env?: Record<string, string>
}): Promise<{ base: string; child: ChildProcess }>
